package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.GpuProfiles;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamSessionTest {
  private final EmbeddedChannel ch = new EmbeddedChannel();
  private final SimPod pod =
      new SimPod(
          PodConfig.of("p", "H100-80"),
          EngineConfig.of("p", "m", GpuProfiles.builtIn().get("H100-80")),
          0,
          null,
          1,
          InstantSource.fixed(Instant.EPOCH));
  private final StreamSession session =
      new StreamSession(
          ch,
          pod,
          new OpenAiJson.Reply(Api.CHAT, "chatcmpl-1", 0, "m", 10, 1),
          new CompletionCall(Api.CHAT, "m", "hi", 5, true, true, 1),
          true);

  @Test
  void tokensProducedWhileUnwritableAreWrittenWhenWritableAgain() {
    // given a channel that cannot take more
    ch.unsafe().outboundBuffer().setUserDefinedWritability(1, false);

    // when three tokens are produced
    for (int i = 1; i <= 3; i++) {
      session.onToken(i);
    }
    ch.runPendingTasks();

    // then only the headers went out
    assertThat((Object) ch.readOutbound()).isInstanceOf(HttpResponse.class);
    assertThat((Object) ch.readOutbound()).isNull();

    // when it becomes writable
    ch.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
    session.drain();

    // then the three tokens follow
    assertThat(events()).hasSize(3).allMatch(e -> e.contains("chat.completion.chunk"));
  }

  private List<String> events() {
    List<String> out = new ArrayList<>();
    for (Object o = ch.readOutbound(); o != null; o = ch.readOutbound()) {
      HttpContent c = (HttpContent) o;
      out.add(c.content().toString(StandardCharsets.UTF_8));
      c.release();
    }
    return out;
  }
}
