package dev.pointsman.bench.routing.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClientRequestsTest {

  private static BenchRequest request(long id, boolean streamed, String adapter, Segment... s) {
    return new BenchRequest(
        new SimRequest(id, 0, List.of(s), 10, adapter, 1L << 50),
        "sharegpt",
        false,
        streamed,
        false);
  }

  private static int estimate(TextMix mix, int tokens) {
    ClientRequests clients = new ClientRequests("base", Set.of(), mix);
    return clients.parsed(request(1, true, "", new Segment(42, tokens))).estimatedPromptTokens();
  }

  @Test
  void theGatewaysEstimateIsRightForProseAndLowForCodeAndCjk() {
    int tokens = 4000;
    assertThat(estimate(TextMix.proseOnly(), tokens)).isBetween(3800, 4200);
    // 3 characters per token: the characters ÷ 4 estimate is about 3/4 of the truth
    assertThat(estimate(new TextMix(0.0, 1.0, 0.0), tokens)).isBetween(2800, 3200);
    // 1.5 characters per token: about 3/8 of the truth
    assertThat(estimate(new TextMix(0.0, 0.0, 1.0), tokens)).isBetween(1300, 1700);
  }

  @Test
  void theBodyIsWhatAClientSendsAndParsesAsThePickerParsesIt() {
    ClientRequests clients = new ClientRequests("base", Set.of("adapter-0"), TextMix.defaults());
    BenchRequest batch = request(7, false, "adapter-0", new Segment(1, 3000), new Segment(2, 5000));
    ParsedRequest p = clients.parsed(batch);
    assertThat(p.model()).isEqualTo("adapter-0");
    assertThat(p.stream()).isFalse();
    assertThat(p.includeUsage()).isFalse();
    // the picker keeps what its prefix hasher reads: an 8,000-token prompt whole
    assertThat((long) PickerApp.PREFIX_CHARS).isGreaterThan(p.promptChars());
    String whole =
        clients.text().render(new Segment(1, 3000))
            + "\n"
            + clients.text().render(new Segment(2, 5000));
    assertThat(p.promptChars()).isEqualTo(whole.length());
    assertThat(p.promptPrefix()).isEqualTo(whole);

    ParsedRequest chat = clients.parsed(request(8, true, "", new Segment(3, 10)));
    assertThat(chat.model()).isEqualTo("base");
    assertThat(chat.stream()).isTrue();
    assertThat(chat.includeUsage()).isTrue();
    assertThat(chat.maxOutputTokens()).isEmpty();
  }
}
