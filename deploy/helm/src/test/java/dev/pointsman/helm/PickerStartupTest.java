package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.pointsman.helm.Scenarios.Scenario;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.app.PoolSource;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.routing.PolicyRegistry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rendered picker config passes the picker's own start-up validation, as `pointsman picker`
 * runs it with the container's arguments: {@code PickerConfig.load} of the mounted file, then
 * {@code PickerApp}'s construction (the pool source, the servers' settings, the bound pool), which
 * is everything before the ports are bound. Kubernetes mode gets a source that publishes nothing
 * (no API server here); config mode its real local source.
 */
class PickerStartupTest {
  @TempDir Path dir;

  static Stream<Scenario> scenarios() {
    return Stream.concat(
        Scenarios.all().stream(),
        Stream.of(
            new Scenario(
                "config mode bound to a pool, with models",
                """
                picker:
                  mode: config
                  pool: chat
                  config:
                    defaultModel: llama
                    models:
                      - {name: llama, pools: [{pool: chat}]}
                    pools:
                      - name: chat
                        endpoints:
                          - {address: "10.0.0.11:8000"}
                          - {address: "10.0.0.12:8000"}
                """),
            new Scenario(
                "override-host behind another gateway, longer shutdown",
                """
                picker:
                  dataPlane: override-host
                  shutdownGraceSeconds: 20
                  drainSeconds: 60
                envoy:
                  enabled: false
                """)));
  }

  /** What --kubernetes reads from the cluster; here nothing. */
  private static final class NoCluster implements PoolSource {
    @Override
    public void start(
        Datastore datastore, PolicyRegistry policies, AtomicReference<ModelResolver> resolver) {}

    @Override
    public boolean ready() {
      return false;
    }
  }

  private static String argAfter(List<String> args, String flag) {
    int at = args.indexOf(flag);
    return at < 0 ? null : args.get(at + 1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void thePickerStartsWithTheRenderedConfigAndArguments(Scenario scenario) throws Exception {
    Rendered r = scenario.render();
    Container picker =
        r.get(Deployment.class, "pointsman-picker")
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .getFirst();
    List<String> args = picker.getArgs();
    assertThat(args.getFirst()).isEqualTo("picker");
    assertThat(argAfter(args, "--config")).isEqualTo("/etc/pointsman/picker.yaml");
    Path file =
        Files.writeString(
            dir.resolve("picker.yaml"),
            r.get(ConfigMap.class, "pointsman-picker").getData().get("picker.yaml"));
    String pool = argAfter(args, "--pool");
    boolean kubernetes = args.contains("--kubernetes");

    assertThatCode(
            () -> {
              PickerConfig config = PickerConfig.load(file);
              try (PickerApp app =
                  kubernetes
                      ? new PickerApp(config, pool, new NoCluster())
                      : new PickerApp(config, pool)) {
                assertThat(app.datastore()).isNotNull();
              }
            })
        .as("picker %s", args)
        .doesNotThrowAnyException();
  }
}
