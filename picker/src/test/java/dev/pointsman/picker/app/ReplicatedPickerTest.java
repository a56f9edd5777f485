package dev.pointsman.picker.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.replication.LoopbackPorts;
import dev.pointsman.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two pickers wired with {@code replication} on loopback find each other, and say so on {@code
 * /readyz} (a detail line under the status line), {@code /debug/replication} and {@code /metrics};
 * a picker without the section shows nothing of it.
 */
class ReplicatedPickerTest {
  private final List<PickerApp> apps = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    apps.forEach(PickerApp::close);
    http.close();
  }

  @Test
  void twoPickersJoinAndReportIt() throws Exception {
    int[] ports = LoopbackPorts.free(2);
    String members = "['127.0.0.1:" + ports[0] + "', '127.0.0.1:" + ports[1] + "']";
    for (int port : ports) {
      apps.add(
          start(
              "replication: {enabled: true, cluster: t"
                  + ports[0]
                  + ", bindPort: "
                  + port
                  + ", discovery: {members: "
                  + members
                  + "}, failureMillis: 1000, expectedMembers: 2, stateTimeoutMillis: 30000}\n"));
    }
    // a join waits on JGroups' own timers, which a loaded build stretches; so may the join's
    // state transfer (a CI run saw it pass the default 5 s, which the status line then reports)
    Await.until(
        "both joined, each with the other's report",
        Duration.ofSeconds(60),
        () ->
            apps.stream()
                .map(PickerApp::replicationStatus)
                .allMatch(st -> st.state().equals("joined") && st.reporting() == 1),
        () -> apps.stream().map(a -> a.replicationStatus().toString()).toList().toString());

    HttpResponse<String> readyz = get(apps.get(0), "/readyz");
    // readiness is the datastore's and the join's; the replication line only adds detail
    assertThat(readyz.body())
        .isEqualTo(
            (readyz.statusCode() == 200 ? "ready" : "not ready")
                + "\nreplication: joined, members 2, reporting peers 1\n");
    assertThat(get(apps.get(1), "/debug/replication").body())
        .contains("\"state\":\"joined\"")
        .contains("\"members\":2");
    assertThat(get(apps.get(1), "/metrics").body())
        .contains("pointsman_replication_members{app=\"pointsman-picker\"} 2.0")
        .contains("pointsman_replication_state{app=\"pointsman-picker\",state=\"joined\"} 1.0");
  }

  @Test
  void withoutReplicationReadyzHasNoReplicationLine() throws Exception {
    PickerApp app = start("");
    apps.add(app);

    HttpResponse<String> readyz = get(app, "/readyz");
    assertThat(readyz.body()).isEqualTo(readyz.statusCode() == 200 ? "ready\n" : "not ready\n");
    assertThat(app.replicationStatus().state()).isEqualTo("off");
    assertThat(get(app, "/metrics").body()).doesNotContain("pointsman_replication");
  }

  private HttpResponse<String> get(PickerApp app, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** A picker with one pool, its only endpoint never answering a scrape. */
  private static PickerApp start(String yaml) {
    return new PickerApp(
            PickerConfig.parse(
                yaml
                    + """
                    grpc: {port: 0, host: 127.0.0.1, tls: plaintext}
                    admin: {port: 0, host: 127.0.0.1}
                    pools:
                      - name: gpu-a
                        models: [llama-3-8b]
                        endpoints: [{address: "127.0.0.1:9"}]
                    """),
            null)
        .start();
  }
}
