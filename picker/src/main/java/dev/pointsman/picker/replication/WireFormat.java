package dev.pointsman.picker.replication;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat.FieldType;
import dev.pointsman.picker.flowcontrol.BudgetUse;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.InFlightTracker.AdapterLoad;
import dev.pointsman.picker.scheduling.InFlightTracker.Load;
import dev.pointsman.picker.scheduling.LoraState;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The contents of the replicas' messages, in the protocol-buffers encoding (protobuf-java is on the
 * classpath already for gRPC; no code generator is needed for messages this small). Version 2, in
 * proto3 terms:
 *
 * <pre>
 * message Batch {
 *   uint32 version = 1;                // always the first field
 *   uint64 loads_report = 2;           // the load report this message carries part of (0: none)
 *   bool loads_last = 3;               // it is the report's last part
 *   bool loads_delta = 8;              // the report holds only endpoints whose load changed
 *   repeated EndpointLoad load = 4;
 *   repeated Pick pick = 5;
 *   repeated Ttft ttft = 6;
 *   repeated Tpot tpot = 7;
 *   repeated BudgetUse budget_use = 9;  // in messages of their own
 * }
 * message EndpointLoad { string address = 1; sint64 pending_requests = 2; sint64 pending_tokens = 3;
 *   sint64 live_requests = 4; sint64 live_tokens = 5; sint64 prefill_requests = 6;
 *   sint64 prefill_tokens = 7;
 *   repeated AdapterLoad adapter = 8; }   // added within version 2: older readers skip it
 * message AdapterLoad { string adapter = 1; sint32 live = 2; sint32 loading = 3; }
 * message Pick { string address = 1; repeated fixed64 blocks = 2; string adapter = 3;
 *   double uncached_tokens = 4;
 *   repeated fixed64 kept = 5;          // added within version 2, in place of blocks: the
 *   uint32 kept_dense = 6;              // prompt's keys in the sender's prefix index, kept by
 *   uint32 kept_stride = 7; }           // these checkpoints; older readers skip them
 * message Ttft { string address = 1; double analytic = 2; double base = 3; double adapter = 4;
 *   string lora = 5; uint32 loads_ahead = 6; double ttft = 7; }
 * message Tpot { string address = 1; double analytic = 2; double tpot = 3; }
 * message BudgetUse { string tenant = 1; string model = 2; sint64 tokens = 3;
 *   sint64 requests = 4; }   // the sender's own use since it started; model "" = all
 * </pre>
 *
 * Unknown fields are skipped, so a later release may add fields within a version; a message of
 * another version is refused with {@link WireException}, whose text says which.
 */
final class WireFormat {
  /** 2: load reports may be deltas ({@code loads_delta}), which version 1 read as whole. */
  static final int VERSION = 2;

  private static final int VERSION_FIELD = 1;
  private static final int LOADS_REPORT = 2;
  private static final int LOADS_LAST = 3;
  private static final int LOAD = 4;
  private static final int PICK = 5;
  private static final int TTFT = 6;
  private static final int TPOT = 7;
  private static final int LOADS_DELTA = 8;
  private static final int BUDGET_USE = 9;

  /** Room kept for a message's header fields (version, report number, last flag). */
  private static final int HEADER_BYTES = 24;

  private WireFormat() {}

  /** A decoded batch. */
  record Batch(
      long loadsReport,
      boolean loadsLast,
      boolean loadsDelta,
      Map<String, Load> loads,
      List<Update> updates,
      List<BudgetUse> budgetUse) {}

  /**
   * Encodes this replica's use of its budgets into messages of at most {@code maxBytes} each (an
   * entry too large even alone is left out and counted in {@code oversize}).
   */
  static List<byte[]> encodeBudgets(List<BudgetUse> uses, int maxBytes, long[] oversize) {
    List<byte[]> out = new ArrayList<>();
    List<byte[]> current = new ArrayList<>();
    int size = HEADER_BYTES;
    for (BudgetUse u : uses) {
      byte[] body = budgetUse(u);
      int n = CodedOutputStream.computeByteArraySize(BUDGET_USE, body);
      if (HEADER_BYTES + n > maxBytes) {
        oversize[0]++;
        continue;
      }
      if (size + n > maxBytes) {
        out.add(budgetMessage(current));
        current = new ArrayList<>();
        size = HEADER_BYTES;
      }
      current.add(body);
      size += n;
    }
    if (!current.isEmpty()) {
      out.add(budgetMessage(current));
    }
    return out;
  }

  private static byte[] budgetMessage(List<byte[]> bodies) {
    return bytes(
        out -> {
          out.writeUInt32(VERSION_FIELD, VERSION);
          for (byte[] b : bodies) {
            out.writeByteArray(BUDGET_USE, b);
          }
        });
  }

  private static byte[] budgetUse(BudgetUse u) {
    return bytes(
        out -> {
          out.writeString(1, u.tenant());
          if (u.model() != null) {
            out.writeString(2, u.model());
          }
          out.writeSInt64(3, u.tokens());
          out.writeSInt64(4, u.requests());
        });
  }

  private static BudgetUse readBudgetUse(CodedInputStream in) throws IOException {
    String tenant = null;
    String model = null;
    long tokens = 0;
    long requests = 0;
    int tag;
    while ((tag = in.readTag()) != 0) {
      switch (com.google.protobuf.WireFormat.getTagFieldNumber(tag)) {
        case 1 -> tenant = in.readString();
        case 2 -> model = in.readString();
        case 3 -> tokens = in.readSInt64();
        case 4 -> requests = in.readSInt64();
        default -> in.skipField(tag);
      }
    }
    return new BudgetUse(required(tenant, "budget_use.tenant"), model, tokens, requests);
  }

  /**
   * Encodes a load report (null: none this time) and updates into messages of at most {@code
   * maxBytes} each. An update that could not fit even alone is left out and counted in {@code
   * oversize}.
   */
  static List<byte[]> encode(
      long report, Map<String, Load> loads, List<Update> updates, int maxBytes, long[] oversize) {
    return encode(report, loads, false, updates, maxBytes, oversize);
  }

  /** As {@link #encode(long, Map, List, int, long[])}, the report a delta when {@code delta}. */
  static List<byte[]> encode(
      long report,
      Map<String, Load> loads,
      boolean delta,
      List<Update> updates,
      int maxBytes,
      long[] oversize) {
    return encode(
        report, loads, delta, updates, PrefixIndex.Checkpoints.EVERY_BLOCK, maxBytes, oversize);
  }

  /**
   * As {@link #encode(long, Map, boolean, List, int, long[])}, a pick's prompt given by its keys as
   * {@code keys} keeps them (the sender's prefix index), or by every block's hash where it keeps
   * every block.
   */
  static List<byte[]> encode(
      long report,
      Map<String, Load> loads,
      boolean delta,
      List<Update> updates,
      PrefixIndex.Checkpoints keys,
      int maxBytes,
      long[] oversize) {
    List<Item> items = new ArrayList<>();
    if (loads != null) {
      loads.forEach((a, l) -> items.add(new Item(LOAD, load(a, l), true)));
    }
    for (Update u : updates) {
      items.add(new Item(fieldOf(u), body(u, keys), false));
    }
    List<List<Item>> messages = new ArrayList<>();
    List<Item> current = new ArrayList<>();
    int size = HEADER_BYTES;
    for (Item item : items) {
      int n = item.size();
      if (HEADER_BYTES + n > maxBytes) {
        oversize[0]++;
        continue;
      }
      if (size + n > maxBytes) {
        messages.add(current);
        current = new ArrayList<>();
        size = HEADER_BYTES;
      }
      current.add(item);
      size += n;
    }
    if (!current.isEmpty() || (loads != null && messages.isEmpty())) {
      messages.add(current); // an empty report still says "nothing in flight"
    }
    int lastLoads = -1;
    for (int m = 0; m < messages.size(); m++) {
      if (loads != null && (messages.get(m).stream().anyMatch(Item::load) || m == 0)) {
        lastLoads = m;
      }
    }
    List<byte[]> out = new ArrayList<>(messages.size());
    for (int m = 0; m < messages.size(); m++) {
      out.add(write(messages.get(m), m <= lastLoads ? report : 0, m == lastLoads, delta));
    }
    return out;
  }

  private static byte[] write(List<Item> items, long report, boolean last, boolean delta) {
    return bytes(
        out -> {
          out.writeUInt32(VERSION_FIELD, VERSION);
          if (report != 0) {
            out.writeUInt64(LOADS_REPORT, report);
            out.writeBool(LOADS_LAST, last);
            if (delta) {
              out.writeBool(LOADS_DELTA, true);
            }
          }
          for (Item i : items) {
            out.writeByteArray(i.field(), i.body());
          }
        });
  }

  /** Decodes one message; throws when it is not a batch of this {@link #VERSION}. */
  static Batch decode(byte[] buf, int offset, int length) throws WireException {
    try {
      CodedInputStream in = CodedInputStream.newInstance(buf, offset, length);
      version(in);
      long report = 0;
      boolean last = false;
      boolean delta = false;
      Map<String, Load> loads = new HashMap<>();
      List<Update> updates = new ArrayList<>();
      List<BudgetUse> budgetUse = new ArrayList<>();
      int tag;
      while ((tag = in.readTag()) != 0) {
        switch (com.google.protobuf.WireFormat.getTagFieldNumber(tag)) {
          case LOADS_REPORT -> report = in.readUInt64();
          case LOADS_LAST -> last = in.readBool();
          case LOADS_DELTA -> delta = in.readBool();
          case LOAD -> readLoad(CodedInputStream.newInstance(in.readByteArray()), loads);
          case PICK -> updates.add(readPick(CodedInputStream.newInstance(in.readByteArray())));
          case TTFT -> updates.add(readTtft(CodedInputStream.newInstance(in.readByteArray())));
          case TPOT -> updates.add(readTpot(CodedInputStream.newInstance(in.readByteArray())));
          case BUDGET_USE ->
              budgetUse.add(readBudgetUse(CodedInputStream.newInstance(in.readByteArray())));
          default -> in.skipField(tag);
        }
      }
      return new Batch(report, last, delta, loads, updates, budgetUse);
    } catch (IOException | IllegalArgumentException e) {
      throw new WireException("malformed replication message (" + e.getMessage() + ")");
    }
  }

  /** Reads and checks the version field, which comes first in every message. */
  static void version(CodedInputStream in) throws IOException, WireException {
    int tag = in.readTag();
    if (com.google.protobuf.WireFormat.getTagFieldNumber(tag) != VERSION_FIELD) {
      throw new WireException(
          "replication message without a version first (expected version " + VERSION + ")");
    }
    int v = in.readUInt32();
    if (v != VERSION) {
      throw new WireException(
          "replication message version "
              + v
              + " (expected "
              + VERSION
              + "; is a replica of another release in the cluster?)");
    }
  }

  private static int fieldOf(Update u) {
    return switch (u) {
      case Update.Pick p -> PICK;
      case Update.KeptPick p -> PICK;
      case Update.Ttft t -> TTFT;
      case Update.Tpot t -> TPOT;
    };
  }

  private static byte[] load(String address, Load l) {
    return bytes(
        out -> {
          out.writeString(1, address);
          out.writeSInt64(2, l.pendingRequests());
          out.writeSInt64(3, l.pendingTokens());
          out.writeSInt64(4, l.liveRequests());
          out.writeSInt64(5, l.liveTokens());
          out.writeSInt64(6, l.prefillRequests());
          out.writeSInt64(7, l.prefillTokens());
          for (Map.Entry<String, AdapterLoad> a : l.adapters().entrySet()) {
            out.writeByteArray(
                8,
                bytes(
                    o -> {
                      o.writeString(1, a.getKey());
                      o.writeSInt32(2, a.getValue().live());
                      o.writeSInt32(3, a.getValue().loading());
                    }));
          }
        });
  }

  private static byte[] body(Update u, PrefixIndex.Checkpoints keys) {
    return bytes(
        out -> {
          switch (u) {
            case Update.Pick p ->
                pick(
                    out,
                    p.address(),
                    o -> {
                      if (keys.equals(PrefixIndex.Checkpoints.EVERY_BLOCK)) {
                        packedLongs(o, 2, p.blocks());
                      } else {
                        keptLongs(o, p.blocks(), keys);
                      }
                    },
                    p.adapter(),
                    p.uncachedTokens());
            case Update.KeptPick p -> // passed on as it came
                pick(
                    out,
                    p.address(),
                    o -> {
                      packedLongs(o, 5, p.keys());
                      keptBy(o, p.keptBy());
                    },
                    p.adapter(),
                    p.uncachedTokens());
            case Update.Ttft t -> {
              Decision.Prediction p = t.prediction();
              out.writeString(1, t.address());
              out.writeDouble(2, p.analyticSeconds());
              out.writeDouble(3, p.baseSeconds());
              out.writeDouble(4, p.adapterSeconds());
              out.writeString(5, p.lora().name());
              out.writeUInt32(6, p.loadsAhead());
              out.writeDouble(7, t.ttftSeconds());
            }
            case Update.Tpot t -> {
              out.writeString(1, t.address());
              out.writeDouble(2, t.analyticTpotSeconds());
              out.writeDouble(3, t.tpotSeconds());
            }
          }
        });
  }

  private static void readLoad(CodedInputStream in, Map<String, Load> into) throws IOException {
    String address = null;
    long[] v = new long[7];
    Map<String, AdapterLoad> adapters = new HashMap<>();
    int tag;
    while ((tag = in.readTag()) != 0) {
      int f = com.google.protobuf.WireFormat.getTagFieldNumber(tag);
      if (f == 1) {
        address = in.readString();
      } else if (f >= 2 && f <= 7) {
        v[f - 1] = in.readSInt64();
      } else if (f == 8) {
        readAdapterLoad(CodedInputStream.newInstance(in.readByteArray()), adapters);
      } else {
        in.skipField(tag);
      }
    }
    into.put(
        required(address, "EndpointLoad.address"),
        new Load((int) v[1], v[2], (int) v[3], v[4], (int) v[5], v[6], adapters));
  }

  private static void readAdapterLoad(CodedInputStream in, Map<String, AdapterLoad> into)
      throws IOException {
    String adapter = null;
    int live = 0;
    int loading = 0;
    int tag;
    while ((tag = in.readTag()) != 0) {
      switch (com.google.protobuf.WireFormat.getTagFieldNumber(tag)) {
        case 1 -> adapter = in.readString();
        case 2 -> live = in.readSInt32();
        case 3 -> loading = in.readSInt32();
        default -> in.skipField(tag);
      }
    }
    into.merge(
        required(adapter, "AdapterLoad.adapter"),
        new AdapterLoad(live, loading),
        AdapterLoad::plus);
  }

  private static Update readPick(CodedInputStream in) throws IOException {
    String address = null;
    String adapter = null;
    long[] blocks = new long[0];
    long[] kept = null;
    int dense = 0;
    int stride = 0;
    double uncached = 0;
    int tag;
    while ((tag = in.readTag()) != 0) {
      switch (com.google.protobuf.WireFormat.getTagFieldNumber(tag)) {
        case 1 -> address = in.readString();
        case 2 -> blocks = readPackedLongs(in, tag, blocks);
        case 3 -> adapter = in.readString();
        case 4 -> uncached = in.readDouble();
        case 5 -> kept = readPackedLongs(in, tag, kept == null ? new long[0] : kept);
        case 6 -> dense = in.readUInt32();
        case 7 -> stride = in.readUInt32();
        default -> in.skipField(tag);
      }
    }
    address = required(address, "Pick.address");
    if (kept == null) {
      return new Update.Pick(address, blocks, adapter, uncached);
    }
    if (blocks.length > 0) {
      throw new IllegalArgumentException("Pick with both blocks and kept keys");
    }
    // a bad dense or stride throws IllegalArgumentException: a malformed message
    return new Update.KeptPick(
        address, kept, new PrefixIndex.Checkpoints(dense, stride), adapter, uncached);
  }

  private static Update readTtft(CodedInputStream in) throws IOException {
    String address = null;
    double analytic = Double.NaN;
    double base = Double.NaN;
    double adapterSeconds = 0;
    LoraState lora = LoraState.NONE;
    int loadsAhead = 0;
    double ttft = Double.NaN;
    int tag;
    while ((tag = in.readTag()) != 0) {
      switch (com.google.protobuf.WireFormat.getTagFieldNumber(tag)) {
        case 1 -> address = in.readString();
        case 2 -> analytic = in.readDouble();
        case 3 -> base = in.readDouble();
        case 4 -> adapterSeconds = in.readDouble();
        case 5 -> lora = LoraState.valueOf(in.readString());
        case 6 -> loadsAhead = in.readUInt32();
        case 7 -> ttft = in.readDouble();
        default -> in.skipField(tag);
      }
    }
    var p =
        new Decision.Prediction(
            analytic, base, adapterSeconds, lora, loadsAhead, Double.NaN, Double.NaN);
    return new Update.Ttft(required(address, "Ttft.address"), p, ttft);
  }

  private static Update readTpot(CodedInputStream in) throws IOException {
    String address = null;
    double analytic = Double.NaN;
    double tpot = Double.NaN;
    int tag;
    while ((tag = in.readTag()) != 0) {
      switch (com.google.protobuf.WireFormat.getTagFieldNumber(tag)) {
        case 1 -> address = in.readString();
        case 2 -> analytic = in.readDouble();
        case 3 -> tpot = in.readDouble();
        default -> in.skipField(tag);
      }
    }
    return new Update.Tpot(required(address, "Tpot.address"), analytic, tpot);
  }

  static void packedLongs(CodedOutputStream out, int field, long[] values) throws IOException {
    packedLongs(out, field, values.length, i -> values[i]);
  }

  /** As above, the {@code count} values given by {@code value} from their index. */
  private static void packedLongs(
      CodedOutputStream out, int field, int count, java.util.function.IntToLongFunction value)
      throws IOException {
    if (count == 0) {
      return;
    }
    out.writeTag(field, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(count * 8);
    for (int i = 0; i < count; i++) {
      out.writeFixed64NoTag(value.applyAsLong(i));
    }
  }

  /** Writes the keys of {@code blocks} as {@code keys} keeps them: the fields kept, kept_*. */
  private static void keptLongs(CodedOutputStream out, long[] blocks, PrefixIndex.Checkpoints keys)
      throws IOException {
    packedLongs(out, 5, keys.kept(blocks.length), j -> keys.keyOf(blocks, j));
    keptBy(out, keys);
  }

  /** The fields kept_dense and kept_stride of a pick. */
  private static void keptBy(CodedOutputStream out, PrefixIndex.Checkpoints keys)
      throws IOException {
    out.writeUInt32(6, keys.dense());
    out.writeUInt32(7, keys.stride());
  }

  /**
   * A pick's fields: its address, its prompt as {@code prompt} writes it, its adapter, its work.
   */
  private static void pick(
      CodedOutputStream out, String address, Body prompt, String adapter, double uncachedTokens)
      throws IOException {
    out.writeString(1, address);
    prompt.write(out);
    if (adapter != null) {
      out.writeString(3, adapter);
    }
    out.writeDouble(4, uncachedTokens);
  }

  /** Reads a packed (or, as protobuf allows, unpacked) repeated fixed64, appended to {@code to}. */
  static long[] readPackedLongs(CodedInputStream in, int tag, long[] to) throws IOException {
    if (com.google.protobuf.WireFormat.getTagWireType(tag) != FieldType.FIXED64.getWireType()) {
      int limit = in.pushLimit(in.readRawVarint32());
      int bytes = in.getBytesUntilLimit();
      if (bytes % Long.BYTES != 0) {
        throw new IllegalArgumentException(
            "packed fixed64 field of " + bytes + " bytes (expected a multiple of 8)");
      }
      long[] out = java.util.Arrays.copyOf(to, to.length + bytes / Long.BYTES);
      for (int i = to.length; i < out.length; i++) {
        out[i] = in.readFixed64();
      }
      in.popLimit(limit);
      return out;
    }
    long[] out = java.util.Arrays.copyOf(to, to.length + 1);
    out[to.length] = in.readFixed64();
    return out;
  }

  static void packedDoubles(CodedOutputStream out, int field, double[] values) throws IOException {
    out.writeTag(field, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(values.length * 8);
    for (double v : values) {
      out.writeDoubleNoTag(v);
    }
  }

  static double[] readPackedDoubles(CodedInputStream in) throws IOException {
    int limit = in.pushLimit(in.readRawVarint32());
    double[] out = new double[in.getBytesUntilLimit() / 8];
    for (int i = 0; i < out.length; i++) {
      out[i] = in.readDouble();
    }
    in.popLimit(limit);
    return out;
  }

  static <T> T required(T value, String field) {
    if (value == null) {
      throw new IllegalArgumentException(field + " missing");
    }
    return value;
  }

  /** Writes what {@code body} writes into a byte array. */
  static byte[] bytes(Body body) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(buf);
    try {
      body.write(out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return buf.toByteArray();
  }

  interface Body {
    void write(CodedOutputStream out) throws IOException;
  }

  private record Item(int field, byte[] body, boolean load) {
    int size() {
      return CodedOutputStream.computeByteArraySize(field, body);
    }
  }

  /** A message that is not a batch this release can read; the text says why. */
  static final class WireException extends Exception {
    WireException(String message) {
      super(message);
    }
  }
}
