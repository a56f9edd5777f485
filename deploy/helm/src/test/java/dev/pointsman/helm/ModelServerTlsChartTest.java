package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.envoy.EnvoyConfigRules;
import dev.pointsman.picker.scrape.ScrapeTls;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * picker.modelServerTls: the picker scrapes model servers serving HTTPS and the chart's Envoy sends
 * them requests over TLS, both trusting the CA of a Secret mounted for them; the chart refuses what
 * could not work.
 */
class ModelServerTlsChartTest {
  private static final String PICKER = "pointsman-picker";
  private static final String ENVOY = "pointsman-envoy";

  private static PickerConfig pickerConfig(Rendered r) {
    return PickerConfig.parse(r.get(ConfigMap.class, PICKER).getData().get("picker.yaml"));
  }

  private static PodSpec pod(Rendered r) {
    return r.get(Deployment.class, PICKER).getSpec().getTemplate().getSpec();
  }

  @Test
  void offByDefault() {
    Rendered r = Chart.defaults();

    assertThat(pickerConfig(r).scrape().tls()).isEqualTo(ScrapeTls.OFF);
    assertThat(pod(r).getVolumes()).noneMatch(v -> v.getName().equals("model-server-ca"));
  }

  @Test
  void aCaSecretIsMountedAndTrustedAndTheUsersScrapeSettingsKept() {
    Rendered r =
        Chart.render(
            """
            picker:
              config: {scrape: {intervalMillis: 100}}
              modelServerTls: {enabled: true, caSecretName: vllm-ca, caKey: bundle.pem}
            """);
    PickerConfig config = pickerConfig(r);
    PodSpec pod = pod(r);

    assertThat(config.scrape().tls())
        .isEqualTo(new ScrapeTls(true, "/etc/pointsman/model-server-ca/bundle.pem", false));
    assertThat(config.scrape().intervalMillis()).isEqualTo(100);
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getName().equals("model-server-ca"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.getSecret().getSecretName()).isEqualTo("vllm-ca");
              assertThat(v.getSecret().getItems().getFirst().getKey()).isEqualTo("bundle.pem");
            });
    assertThat(pod.getContainers().getFirst().getVolumeMounts())
        .anySatisfy(
            m -> {
              assertThat(m.getName()).isEqualTo("model-server-ca");
              assertThat(m.getMountPath()).isEqualTo("/etc/pointsman/model-server-ca");
              assertThat(m.getReadOnly()).isTrue();
            });
  }

  @Test
  void insecureSkipVerifyMountsNothing() {
    Rendered r =
        Chart.render(
            """
            envoy: {enabled: false}
            picker:
              modelServerTls: {enabled: true, insecureSkipVerify: true}
            """);

    assertThat(pickerConfig(r).scrape().tls()).isEqualTo(new ScrapeTls(true, null, true));
    assertThat(pod(r).getVolumes()).noneMatch(v -> v.getName().equals("model-server-ca"));
  }

  @Test
  void envoyReachesThePickedPodAndTheFallbackOverTlsTrustingTheSameCa() {
    Rendered r = Chart.render("picker: {modelServerTls: {enabled: true, caSecretName: vllm-ca}}\n");
    Map<String, String> data = r.get(ConfigMap.class, ENVOY).getData();
    PodSpec pod = r.get(Deployment.class, ENVOY).getSpec().getTemplate().getSpec();

    Bootstrap bootstrap = EnvoyConfigRules.assertValid(data.get("envoy.yaml"));
    // the CA is file-based SDS like the others: a rotation needs no restart
    EnvoyConfigRules.assertSdsFiles(
        bootstrap,
        path -> path.startsWith("/etc/envoy/sds/") ? data.get(path.substring(15)) : null);
    for (String cluster : List.of("model-servers", "default-models")) {
      UpstreamTlsContext tls = upstreamTls(bootstrap, cluster);
      assertThat(tls.getCommonTlsContext().getValidationContextSdsSecretConfig().getName())
          .as(cluster)
          .isEqualTo("model-server-ca");
    }
    assertThat(EnvoyConfigRules.cluster(bootstrap, "model-servers-h2c").hasTransportSocket())
        .as("h2c is cleartext by definition")
        .isFalse();
    var ca =
        EnvoyConfigRules.unpack(
            EnvoyConfigRules.parseSds(data.get("model-server-ca.yaml")).getResources(0),
            io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret.class);
    assertThat(ca.getValidationContext().getTrustedCa().getFilename())
        .isEqualTo("/etc/envoy/model-server-ca/ca.crt");
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getName().equals("model-server-ca"))
        .singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("vllm-ca"));
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getName().equals("sds"))
        .singleElement()
        .satisfies(
            v ->
                assertThat(v.getConfigMap().getItems())
                    .anySatisfy(i -> assertThat(i.getKey()).isEqualTo("model-server-ca.yaml")));
    assertThat(pod.getContainers().getFirst().getVolumeMounts())
        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/etc/envoy/model-server-ca"));
  }

  @Test
  void envoyWithoutACaTrustsTheSystemBundleAndInsecureTrustsAnything() {
    Bootstrap system = envoy("picker: {modelServerTls: {enabled: true}}\n");
    Bootstrap insecure =
        envoy("picker: {modelServerTls: {enabled: true, insecureSkipVerify: true}}\n");

    assertThat(
            upstreamTls(system, "model-servers")
                .getCommonTlsContext()
                .getValidationContext()
                .getTrustedCa()
                .getFilename())
        .isEqualTo("/etc/ssl/certs/ca-certificates.crt");
    assertThat(upstreamTls(insecure, "model-servers").getCommonTlsContext().hasValidationContext())
        .isFalse();
    assertThat(
            upstreamTls(insecure, "model-servers")
                .getCommonTlsContext()
                .hasValidationContextSdsSecretConfig())
        .isFalse();
  }

  @Test
  void byDefaultEnvoyReachesThePodsInPlainHttp() {
    Bootstrap bootstrap = envoy("");

    assertThat(EnvoyConfigRules.cluster(bootstrap, "model-servers").hasTransportSocket()).isFalse();
    assertThat(EnvoyConfigRules.cluster(bootstrap, "default-models").hasTransportSocket())
        .isFalse();
  }

  /** The chart's Envoy config rendered with {@code values}, validated. */
  private static Bootstrap envoy(String values) {
    return EnvoyConfigRules.assertValid(
        Chart.render(values).get(ConfigMap.class, ENVOY).getData().get("envoy.yaml"));
  }

  private static UpstreamTlsContext upstreamTls(Bootstrap bootstrap, String cluster) {
    Cluster c = EnvoyConfigRules.cluster(bootstrap, cluster);
    assertThat(c.getTransportSocket().getName()).isEqualTo("envoy.transport_sockets.tls");
    return EnvoyConfigRules.unpack(
        c.getTransportSocket().getTypedConfig(), UpstreamTlsContext.class);
  }

  @Test
  void settingsThatCannotWorkAreRefused() {
    assertThatThrownBy(
            () ->
                Chart.render(
                    """
                    envoy: {enabled: false}
                    picker:
                      modelServerTls: {enabled: true, caSecretName: ca, insecureSkipVerify: true}
                    """))
        .hasMessageContaining("picker.modelServerTls: caSecretName with insecureSkipVerify");
    assertThatThrownBy(() -> Chart.render("picker: {modelServerTls: {caSecretName: ca}}\n"))
        .hasMessageContaining("is set but enabled is false");
    assertThatThrownBy(
            () -> Chart.render("picker: {modelServerTls: {enabled: true, verify: true}}\n"))
        .hasMessageContaining("verify");
  }
}
