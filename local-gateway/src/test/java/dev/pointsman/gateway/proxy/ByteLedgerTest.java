package dev.pointsman.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ByteLedgerTest {

  private static ByteBuf buf(String s) {
    return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
  }

  @Test
  void keepsWhatWasNotEchoedAcrossChunkBoundaries() {
    ByteLedger ledger = new ByteLedger(1024);
    ByteBuf one = buf("hello ");
    ByteBuf two = buf("world");
    ledger.sent(one);
    ledger.sent(two);
    one.release();
    two.release();

    ledger.echoed(8);

    assertThat(ledger.outstanding()).isEqualTo(3);
    List<ByteBuf> rest = ledger.takeUnechoed();
    assertThat(rest).hasSize(1);
    assertThat(rest.getFirst().toString(StandardCharsets.UTF_8)).isEqualTo("rld");
    rest.forEach(ByteBuf::release);
    assertThat(two.refCnt()).isZero();
  }

  @Test
  void pastTheLimitOnlyCountsAndIsNotRecoverable() {
    ByteLedger ledger = new ByteLedger(4);
    ByteBuf big = buf("too long");
    ledger.sent(big);

    assertThat(ledger.recoverable()).isFalse();
    assertThat(ledger.outstanding()).isEqualTo(8);
    assertThat(big.refCnt()).isEqualTo(1);
    big.release();
  }
}
