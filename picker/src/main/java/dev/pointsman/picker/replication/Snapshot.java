package dev.pointsman.picker.replication;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.BudgetLevel;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.replication.WireFormat.WireException;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one replica has learned, whole: sent to a replica that joins late (JGroups state transfer)
 * and exchanged when a partition heals. Absorbing it is a merge, not a replacement: prefix blocks
 * and adapters are added to what the receiver knows (a union), and of two learned fits of one
 * endpoint the one trained on more observations is kept, so both sides of a healed partition end
 * with the same models (the mean answer length likewise); each tenant budget keeps the lower of the
 * two balances. In-flight work is not in it: every member reports its own within a batch interval.
 * Version 1, in proto3 terms:
 *
 * <pre>
 * message Snapshot {
 *   uint32 version = 1;                       // always the first field
 *   repeated Blocks prefix = 2;               // { string address = 1; repeated fixed64 block = 2; }
 *   repeated Adapters adapters = 3;           // { string address = 1; repeated string adapter = 2; }
 *   repeated State ttft_fit = 4;              // { string address = 1; repeated double state = 2; }
 *   repeated State tpot_fit = 5;
 *   repeated State queued_work = 6;
 *   repeated Level budget = 7;                // { string tenant = 1; string model = 2;
 *                                             //   uint64 tokens_per_minute = 3;
 *                                             //   uint64 requests_per_minute = 4;
 *                                             //   double tokens = 5; double requests = 6; }
 *   repeated double answer_length = 8;        // {mean output tokens, answers seen}; absent from
 *                                             // older replicas, and then ignored
 *   repeated Blocks prefix_kept = 9;          // as prefix, the keys of an index kept by
 *   uint32 kept_dense = 10;                   // these checkpoints (PrefixIndex.Checkpoints)
 *   uint32 kept_stride = 11;
 * }
 * </pre>
 *
 * <p>Prefix keys mean something only to an index that keeps the same blocks: an index that keeps
 * every block writes them as {@code prefix}, as every release has; one kept by checkpoints writes
 * them as {@code prefix_kept}, which releases from before checkpoints skip. A receiver absorbs the
 * prefix keys only when their checkpoints are its own, and otherwise learns its prefixes afresh.
 */
record Snapshot(
    Map<String, long[]> prefix,
    PrefixIndex.Checkpoints prefixKeys,
    Map<String, List<String>> adapters,
    Map<String, double[]> ttftFits,
    Map<String, double[]> tpotFits,
    Map<String, double[]> queuedWork,
    List<BudgetLevel> budgets,
    double[] answerLengths) {

  /** What {@code scheduler} knows now. */
  static Snapshot of(Scheduler scheduler) {
    return of(scheduler, TokenBudgets.none());
  }

  /** What {@code scheduler} knows now, and the balance of each of {@code budgets}. */
  static Snapshot of(Scheduler scheduler, TokenBudgets budgets) {
    return new Snapshot(
        scheduler.prefixIndex().export(),
        scheduler.prefixIndex().checkpoints(),
        scheduler.adapterHistory().export(),
        scheduler.latencyModel().export(),
        scheduler.tpotModel().export(),
        scheduler.queuedWork().export(),
        budgets.levels(),
        scheduler.answerLengthState());
  }

  /** Merges this snapshot into what {@code scheduler} knows. */
  void absorbInto(Scheduler scheduler) {
    absorbInto(scheduler, TokenBudgets.none());
  }

  /**
   * Merges this snapshot into what {@code scheduler} knows, and its balances into {@code budgets}.
   */
  void absorbInto(Scheduler scheduler, TokenBudgets budgets) {
    if (prefixKeys.equals(scheduler.prefixIndex().checkpoints())) {
      prefix.forEach(scheduler.prefixIndex()::restore);
    }
    adapters.forEach((a, list) -> list.forEach(ad -> scheduler.adapterHistory().record(a, ad)));
    scheduler.latencyModel().restore(ttftFits);
    scheduler.tpotModel().restore(tpotFits);
    scheduler.queuedWork().restore(queuedWork);
    scheduler.restoreAnswerLengths(answerLengths);
    budgets.adoptLevels(this.budgets);
  }

  void writeTo(OutputStream stream) throws IOException {
    CodedOutputStream out = CodedOutputStream.newInstance(stream);
    out.writeUInt32(1, WireFormat.VERSION);
    boolean everyBlock = prefixKeys.equals(PrefixIndex.Checkpoints.EVERY_BLOCK);
    for (var e : prefix.entrySet()) {
      entry(out, everyBlock ? 2 : 9, e.getKey(), o -> WireFormat.packedLongs(o, 2, e.getValue()));
    }
    if (!everyBlock) {
      out.writeUInt32(10, prefixKeys.dense());
      out.writeUInt32(11, prefixKeys.stride());
    }
    for (var e : adapters.entrySet()) {
      entry(
          out,
          3,
          e.getKey(),
          o -> {
            for (String a : e.getValue()) {
              o.writeString(2, a);
            }
          });
    }
    states(out, 4, ttftFits);
    states(out, 5, tpotFits);
    states(out, 6, queuedWork);
    for (BudgetLevel level : budgets) {
      out.writeByteArray(
          7,
          WireFormat.bytes(
              o -> {
                Budget b = level.budget();
                o.writeString(1, b.tenant());
                if (b.model() != null) {
                  o.writeString(2, b.model());
                }
                o.writeUInt64(3, b.tokensPerMinute());
                o.writeUInt64(4, b.requestsPerMinute());
                o.writeDouble(5, level.tokens());
                o.writeDouble(6, level.requests());
              }));
    }
    WireFormat.packedDoubles(out, 8, answerLengths);
    out.flush();
  }

  static Snapshot readFrom(InputStream stream) throws IOException, WireException {
    CodedInputStream in = CodedInputStream.newInstance(stream);
    in.setSizeLimit(Integer.MAX_VALUE);
    WireFormat.version(in);
    Snapshot s =
        new Snapshot(
            new HashMap<>(),
            PrefixIndex.Checkpoints.EVERY_BLOCK,
            new HashMap<>(),
            new HashMap<>(),
            new HashMap<>(),
            new HashMap<>(),
            new ArrayList<>(),
            new double[0]);
    double[] answerLengths = new double[0];
    Map<String, long[]> kept = new HashMap<>();
    int keptDense = 0;
    int keptStride = 0;
    int tag;
    try {
      while ((tag = in.readTag()) != 0) {
        int field = com.google.protobuf.WireFormat.getTagFieldNumber(tag);
        if (field == 7) {
          s.budgets.add(level(CodedInputStream.newInstance(in.readByteArray())));
          continue;
        }
        if (field == 8) {
          answerLengths = WireFormat.readPackedDoubles(in);
          continue;
        }
        if (field == 10) {
          keptDense = in.readUInt32();
          continue;
        }
        if (field == 11) {
          keptStride = in.readUInt32();
          continue;
        }
        if (field < 2 || field > 6 && field != 9) {
          in.skipField(tag);
          continue;
        }
        CodedInputStream e = CodedInputStream.newInstance(in.readByteArray());
        String address = null;
        long[] blocks = new long[0];
        List<String> names = new ArrayList<>();
        double[] state = new double[0];
        int t;
        while ((t = e.readTag()) != 0) {
          int f = com.google.protobuf.WireFormat.getTagFieldNumber(t);
          if (f == 1) {
            address = e.readString();
          } else if (f == 2 && (field == 2 || field == 9)) {
            blocks = WireFormat.readPackedLongs(e, t, blocks);
          } else if (f == 2 && field == 3) {
            names.add(e.readString());
          } else if (f == 2) {
            state = WireFormat.readPackedDoubles(e);
          } else {
            e.skipField(t);
          }
        }
        address = WireFormat.required(address, "Snapshot entry address");
        switch (field) {
          case 2 -> s.prefix.put(address, blocks);
          case 9 -> kept.put(address, blocks);
          case 3 -> s.adapters.put(address, names);
          case 4 -> s.ttftFits.put(address, state);
          case 5 -> s.tpotFits.put(address, state);
          default -> s.queuedWork.put(address, state);
        }
      }
    } catch (IllegalArgumentException ex) {
      throw new WireException("malformed replication snapshot (" + ex.getMessage() + ")");
    }
    Map<String, long[]> prefix = s.prefix;
    PrefixIndex.Checkpoints prefixKeys = PrefixIndex.Checkpoints.EVERY_BLOCK;
    if (!kept.isEmpty() || keptStride != 0) {
      if (!s.prefix.isEmpty()) {
        throw new WireException("replication snapshot with prefix keys of two kinds");
      }
      prefix = kept;
      prefixKeys = checkpoints(keptDense, keptStride);
    }
    return new Snapshot(
        prefix,
        prefixKeys,
        s.adapters,
        s.ttftFits,
        s.tpotFits,
        s.queuedWork,
        s.budgets,
        answerLengths);
  }

  private static PrefixIndex.Checkpoints checkpoints(int dense, int stride) throws WireException {
    try {
      return new PrefixIndex.Checkpoints(dense, stride);
    } catch (IllegalArgumentException ex) {
      throw new WireException("malformed replication snapshot (" + ex.getMessage() + ")");
    }
  }

  private static BudgetLevel level(CodedInputStream e) throws IOException, WireException {
    String tenant = null;
    String model = null;
    long tokensPerMinute = 0;
    long requestsPerMinute = 0;
    double tokens = 0;
    double requests = 0;
    int t;
    while ((t = e.readTag()) != 0) {
      switch (com.google.protobuf.WireFormat.getTagFieldNumber(t)) {
        case 1 -> tenant = e.readString();
        case 2 -> model = e.readString();
        case 3 -> tokensPerMinute = e.readUInt64();
        case 4 -> requestsPerMinute = e.readUInt64();
        case 5 -> tokens = e.readDouble();
        case 6 -> requests = e.readDouble();
        default -> e.skipField(t);
      }
    }
    return new BudgetLevel(
        new Budget(
            WireFormat.required(tenant, "Snapshot budget tenant"),
            model,
            tokensPerMinute,
            requestsPerMinute),
        tokens,
        requests);
  }

  private static void states(CodedOutputStream out, int field, Map<String, double[]> states)
      throws IOException {
    for (var e : states.entrySet()) {
      entry(out, field, e.getKey(), o -> WireFormat.packedDoubles(o, 2, e.getValue()));
    }
  }

  private static void entry(CodedOutputStream out, int field, String address, WireFormat.Body rest)
      throws IOException {
    out.writeByteArray(
        field,
        WireFormat.bytes(
            o -> {
              o.writeString(1, address);
              rest.write(o);
            }));
  }
}
