package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.CodedInputStream;
import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.BudgetLevel;
import dev.pointsman.picker.flowcontrol.BudgetUse;
import dev.pointsman.picker.replication.WireFormat.WireException;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.InFlightTracker.AdapterLoad;
import dev.pointsman.picker.scheduling.InFlightTracker.Load;
import dev.pointsman.picker.scheduling.LoraState;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class WireFormatTest {
  private static final Decision.Prediction PREDICTION =
      new Decision.Prediction(0.2, 0.25, 0.1, LoraState.COLD_LOAD, 2, Double.NaN, Double.NaN);

  @Test
  void aBatchRoundTrips() throws Exception {
    Map<String, Load> loads = Map.of("10.0.0.1:8000", new Load(1, 100, 3, 300, 2, 150));
    List<Update> updates =
        List.of(
            new Update.Pick("10.0.0.1:8000", new long[] {-1L, 42L, Long.MAX_VALUE}, "sql", 77.5),
            new Update.Pick("10.0.0.2:8000", new long[0], null, 0),
            new Update.Ttft("10.0.0.1:8000", PREDICTION, 0.9),
            new Update.Tpot("10.0.0.2:8000", 0.01, 0.012));

    List<byte[]> messages = WireFormat.encode(5, loads, updates, 60_000, new long[1]);

    assertThat(messages).hasSize(1);
    WireFormat.Batch b = WireFormat.decode(messages.get(0), 0, messages.get(0).length);
    assertThat(b.loadsReport()).isEqualTo(5);
    assertThat(b.loadsLast()).isTrue();
    assertThat(b.loads()).isEqualTo(loads);
    assertThat(b.updates()).hasSize(4);
    var pick = (Update.Pick) b.updates().get(0);
    assertThat(pick.blocks()).containsExactly(-1L, 42L, Long.MAX_VALUE);
    assertThat(pick.adapter()).isEqualTo("sql");
    assertThat(pick.uncachedTokens()).isEqualTo(77.5);
    assertThat(((Update.Pick) b.updates().get(1)).adapter()).isNull();
    var ttft = (Update.Ttft) b.updates().get(2);
    assertThat(ttft.prediction().lora()).isEqualTo(LoraState.COLD_LOAD);
    assertThat(ttft.prediction().predictedSeconds()).isEqualTo(PREDICTION.predictedSeconds());
    assertThat(ttft.prediction().loadsAhead()).isEqualTo(2);
    assertThat(b.updates().get(3)).isEqualTo(new Update.Tpot("10.0.0.2:8000", 0.01, 0.012));
  }

  @Test
  void aPickFromAnIndexKeptByCheckpointsTravelsAsItsKeysAndTeachesAPeerAsThePickWould()
      throws Exception {
    PrefixIndex.Checkpoints picker = new PrefixIndex.Checkpoints(512, 8);
    long[] prompt = new java.util.SplittableRandom(11).longs(3_520).toArray(); // a 220 KB prompt
    List<Update> updates = List.of(new Update.Pick("10.0.0.1:8000", prompt, "sql", 12.5));

    byte[] raw = WireFormat.encode(0, null, updates, 60_000, new long[1]).get(0);
    byte[] kept = WireFormat.encode(0, null, false, updates, picker, 60_000, new long[1]).get(0);
    assertThat(raw.length).isGreaterThan(3_520 * 8);
    assertThat(kept.length).isLessThan(888 * 8 + 100);

    var pick = (Update.KeptPick) WireFormat.decode(kept, 0, kept.length).updates().get(0);
    assertThat(pick.keptBy()).isEqualTo(picker);
    assertThat(pick.keys()).hasSize(picker.kept(3_520));
    Scheduler told = Cluster.scheduler(picker);
    pick.applyTo(told);
    Scheduler picked = Cluster.scheduler(picker);
    picked.learnPick("10.0.0.1:8000", prompt, "sql", 12.5);
    assertThat(told.prefixIndex().export().get("10.0.0.1:8000"))
        .containsExactly(picked.prefixIndex().export().get("10.0.0.1:8000"));
    assertThat(told.prefixIndex().endsPrompt("10.0.0.1:8000", prompt, 3_520)).isTrue();
    assertThat(told.adapterHistory().mostRecent("10.0.0.1:8000", 1)).containsExactly("sql");

    Scheduler other = Cluster.scheduler(new PrefixIndex.Checkpoints(256, 8));
    pick.applyTo(other);
    assertThat(other.prefixIndex().size("10.0.0.1:8000")).as("keys it would misread").isZero();
    assertThat(other.adapterHistory().mostRecent("10.0.0.1:8000", 1)).containsExactly("sql");

    // a replica that passes it on sends what it received
    byte[] again =
        WireFormat.encode(0, null, false, List.of(pick), picker, 60_000, new long[1]).get(0);
    assertThat(
            ((Update.KeptPick) WireFormat.decode(again, 0, again.length).updates().get(0)).keys())
        .containsExactly(pick.keys());
  }

  /** A message of one pick whose fields after its address {@code rest} writes. */
  private static byte[] pickMessage(WireFormat.Body rest) {
    return WireFormat.bytes(
        o -> {
          o.writeUInt32(1, WireFormat.VERSION);
          o.writeByteArray(
              5,
              WireFormat.bytes(
                  p -> {
                    p.writeString(1, "a:1");
                    rest.write(p);
                  }));
        });
  }

  @Test
  void aMalformedPickIsRefused() throws Exception {
    byte[] badStride =
        pickMessage(
            p -> {
              WireFormat.packedLongs(p, 5, new long[] {1, 2});
              p.writeUInt32(6, 512);
              p.writeUInt32(7, 0);
            });
    byte[] both =
        pickMessage(
            p -> {
              WireFormat.packedLongs(p, 2, new long[] {1, 2});
              WireFormat.packedLongs(p, 5, new long[] {1, 2});
              p.writeUInt32(6, 512);
              p.writeUInt32(7, 8);
            });
    byte[] ragged = pickMessage(p -> p.writeByteArray(2, new byte[12])); // fixed64s of 12 bytes
    for (byte[] m : List.of(badStride, both, ragged)) {
      assertThatThrownBy(() -> WireFormat.decode(m, 0, m.length))
          .isInstanceOf(WireException.class)
          .hasMessageContaining("malformed replication message");
    }
  }

  @Test
  void aBigBatchIsSplitIntoBoundedMessagesAndTheLoadReportEndsInItsLastPart() throws Exception {
    Map<String, Load> loads = new HashMap<>();
    for (int i = 0; i < 300; i++) {
      loads.put("10.0." + i / 250 + "." + i % 250 + ":8000", new Load(i, i, i, i, i, i));
    }
    List<Update> updates = new ArrayList<>();
    long[] blocks = LongStream.range(0, 256).toArray();
    for (int i = 0; i < 40; i++) {
      updates.add(new Update.Pick("10.0.0.1:8000", blocks, null, 1));
    }
    long[] oversize = new long[1];

    List<byte[]> messages = WireFormat.encode(9, loads, updates, 8_192, oversize);

    assertThat(messages.size()).isGreaterThan(10);
    assertThat(messages).allSatisfy(m -> assertThat(m.length).isLessThanOrEqualTo(8_192));
    Map<String, Load> got = new HashMap<>();
    int picks = 0;
    int lastFlags = 0;
    for (byte[] m : messages) {
      WireFormat.Batch b = WireFormat.decode(m, 0, m.length);
      got.putAll(b.loads());
      picks += b.updates().size();
      lastFlags += b.loadsLast() ? 1 : 0;
      if (!b.loads().isEmpty()) {
        assertThat(b.loadsReport()).isEqualTo(9);
      }
    }
    assertThat(got).isEqualTo(loads);
    assertThat(picks).isEqualTo(40);
    assertThat(lastFlags).isEqualTo(1);
    assertThat(oversize[0]).isZero();
  }

  @Test
  void anUpdateTooBigForAnyMessageIsCountedAndLeftOut() {
    long[] oversize = new long[1];
    long[] blocks = LongStream.range(0, 1_000).toArray();

    List<byte[]> messages =
        WireFormat.encode(
            0, null, List.of(new Update.Pick("a:1", blocks, null, 1)), 4_096, oversize);

    assertThat(messages).isEmpty();
    assertThat(oversize[0]).isEqualTo(1);
  }

  @Test
  void aDeltaReportSaysSoInEveryPartAndAWholeOneDoesNot() throws Exception {
    Map<String, Load> loads = new HashMap<>();
    for (int i = 0; i < 400; i++) {
      loads.put("10.0.%d.%d:8000".formatted(i / 250, i % 250), new Load(1, 2, 3, 4, 5, 6));
    }

    List<byte[]> delta = WireFormat.encode(7, loads, true, List.of(), 4_096, new long[1]);
    List<byte[]> whole = WireFormat.encode(8, loads, false, List.of(), 4_096, new long[1]);

    assertThat(delta).hasSizeGreaterThan(1);
    Map<String, Load> decoded = new HashMap<>();
    for (byte[] m : delta) {
      WireFormat.Batch b = WireFormat.decode(m, 0, m.length);
      assertThat(b.loadsReport()).isEqualTo(7);
      assertThat(b.loadsDelta()).isTrue();
      decoded.putAll(b.loads());
    }
    assertThat(decoded).isEqualTo(loads);
    for (byte[] m : whole) {
      assertThat(WireFormat.decode(m, 0, m.length).loadsDelta()).isFalse();
    }
  }

  @Test
  void anEndpointsLiveAdaptersRoundTripAndAReaderWithoutThemSkipsThem() throws Exception {
    Load withAdapters =
        new Load(
            1,
            100,
            3,
            300,
            2,
            150,
            Map.of("sql", new AdapterLoad(2, 1), "chat", new AdapterLoad(1, 0)));
    Map<String, Load> loads = Map.of("10.0.0.1:8000", withAdapters);

    byte[] m = WireFormat.encode(5, loads, List.of(), 60_000, new long[1]).get(0);

    assertThat(WireFormat.decode(m, 0, m.length).loads()).isEqualTo(loads);
    // the fields a reader of the earlier layout knows are intact around the new ones: read as
    // that reader reads (field 8 skipped), the load is the same without its adapters
    var in = CodedInputStream.newInstance(m);
    Map<Integer, Long> known = new HashMap<>();
    int tag;
    while ((tag = in.readTag()) != 0) {
      if (com.google.protobuf.WireFormat.getTagFieldNumber(tag) != 4) {
        in.skipField(tag);
        continue;
      }
      var load = CodedInputStream.newInstance(in.readByteArray());
      int t;
      while ((t = load.readTag()) != 0) {
        int f = com.google.protobuf.WireFormat.getTagFieldNumber(t);
        if (f >= 2 && f <= 7) {
          known.put(f, load.readSInt64());
        } else {
          load.skipField(t);
        }
      }
    }
    assertThat(known)
        .containsExactlyInAnyOrderEntriesOf(Map.of(2, 1L, 3, 100L, 4, 3L, 5, 300L, 6, 2L, 7, 150L));
  }

  @Test
  void anEmptyLoadReportIsStillSent() throws Exception {
    List<byte[]> messages = WireFormat.encode(3, Map.of(), List.of(), 4_096, new long[1]);

    assertThat(messages).hasSize(1);
    WireFormat.Batch b = WireFormat.decode(messages.get(0), 0, messages.get(0).length);
    assertThat(b.loadsReport()).isEqualTo(3);
    assertThat(b.loadsLast()).isTrue();
    assertThat(b.loads()).isEmpty();
  }

  @Test
  void anotherVersionIsRefusedWithAClearError() {
    byte[] v1 = WireFormat.bytes(o -> o.writeUInt32(1, 1));
    byte[] none = WireFormat.bytes(o -> o.writeString(4, "x"));
    byte[] garbage = {(byte) 0x08, (byte) 0x02, (byte) 0x2a, (byte) 0xff};

    assertThatThrownBy(() -> WireFormat.decode(v1, 0, v1.length))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("replication message version 1 (expected 2");
    assertThatThrownBy(() -> WireFormat.decode(none, 0, none.length))
        .hasMessageContaining("without a version first (expected version 2)");
    assertThatThrownBy(() -> WireFormat.decode(garbage, 0, garbage.length))
        .isInstanceOf(WireException.class)
        .hasMessageContaining("malformed replication message");
  }

  @Test
  void aSnapshotRoundTrips() throws Exception {
    Snapshot s =
        new Snapshot(
            Map.of("a:1", new long[] {3, 1, 2}),
            PrefixIndex.Checkpoints.EVERY_BLOCK,
            Map.of("a:1", List.of("x", "y")),
            Map.of("a:1", new double[] {0.01, 1, 2, 3, 4, 5, 0.1}),
            Map.of("b:1", new double[] {0.5, 10, Double.NaN}),
            Map.of("", new double[] {300, 25}),
            List.of(
                new BudgetLevel(new Budget("team-a", null, 6_000, 0), -250.5, 0),
                new BudgetLevel(new Budget("team-b", "llama", 0, 30), 0, 12.25)),
            new double[] {412.5, 90});
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    s.writeTo(out);
    Snapshot back = Snapshot.readFrom(new ByteArrayInputStream(out.toByteArray()));

    assertThat(back.prefix().get("a:1")).containsExactly(3, 1, 2);
    assertThat(back.prefixKeys()).isEqualTo(PrefixIndex.Checkpoints.EVERY_BLOCK);
    assertThat(back.adapters()).isEqualTo(s.adapters());
    assertThat(back.ttftFits().get("a:1")).containsExactly(s.ttftFits().get("a:1"));
    assertThat(back.tpotFits().get("b:1")).containsExactly(s.tpotFits().get("b:1"));
    assertThat(back.queuedWork().get("")).containsExactly(300, 25);
    assertThat(back.budgets()).isEqualTo(s.budgets());
    assertThat(back.answerLengths()).containsExactly(412.5, 90);
  }

  @Test
  void budgetUseRoundTripsInBoundedMessagesOfItsOwn() throws Exception {
    List<BudgetUse> uses = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      uses.add(new BudgetUse("tenant-" + i, i % 2 == 0 ? null : "m", 1_000L * i, -i));
    }
    long[] oversize = new long[1];

    List<byte[]> messages = WireFormat.encodeBudgets(uses, 256, oversize);

    assertThat(messages).hasSizeGreaterThan(1).allMatch(m -> m.length <= 256);
    List<BudgetUse> back = new java.util.ArrayList<>();
    for (byte[] m : messages) {
      WireFormat.Batch b = WireFormat.decode(m, 0, m.length);
      assertThat(b.loadsReport()).isZero();
      assertThat(b.updates()).isEmpty();
      back.addAll(b.budgetUse());
    }
    assertThat(back).isEqualTo(uses);
    assertThat(oversize[0]).isZero();
  }
}
