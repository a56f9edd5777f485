package dev.pointsman.gateway.app;

import dev.pointsman.gateway.config.AdminSection;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.runtime.Shutdown;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pointsman local-gateway}: the local stand-in for Envoy. */
@Command(
    name = "local-gateway",
    mixinStandardHelpOptions = true,
    header = "Runs the local gateway, the stand-in for Envoy on a laptop.",
    description = {
      "Runs the local gateway, the stand-in for Envoy on a laptop: an HTTPS (HTTP/2 and"
          + " HTTP/1.1) listener that asks the picker over ext_proc where each request goes and"
          + " forwards it to that model server, as Envoy does with deploy/envoy/envoy.yaml."
          + " Production uses Envoy.",
      "",
      "It binds 127.0.0.1 unless listen.host or --bind says otherwise. It trusts the picker's"
          + " certificate named by picker.caFile (examples/local-gateway.yaml names"
          + " .pointsman/picker.pem, which `pointsman picker` writes in local mode).",
      "",
      "Config keys (listen, picker, failureModeAllow, fallbackEndpoints, timeouts, limits,"
          + " admin): docs/local-gateway.md."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  ./pointsman local-gateway --config examples/local-gateway.yaml",
      "  curl -k -N https://localhost:8443/v1/chat/completions -H 'content-type: application/json'"
          + " -d '{\"model\":\"llama\",\"stream\":true,\"messages\":[{\"role\":\"user\","
          + "\"content\":\"Hi\"}]}'"
    })
public final class LocalGatewayCommand implements Callable<Integer> {

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Gateway config file (default: every key at its default; docs/local-gateway.md).")
  Path config;

  @Option(names = "--port", paramLabel = "PORT", description = "Overrides listen.port.")
  Integer port;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      description = "Overrides listen.host and admin.host (default 127.0.0.1).")
  String bind;

  @Option(
      names = "--admin-port",
      paramLabel = "PORT",
      description = "Overrides admin.port, and turns the admin listener on.")
  Integer adminPort;

  @Option(names = "--picker", paramLabel = "HOST:PORT", description = "Overrides picker.address.")
  String picker;

  @Option(
      names = "--picker-ca",
      paramLabel = "FILE",
      description = "Overrides picker.caFile: the PEM file of the picker's certificate to trust.")
  Path pickerCa;

  @Option(
      names = "--picker-plaintext",
      description = "Talks to the picker without TLS (picker.tls: plaintext).")
  boolean pickerPlaintext;

  @Option(names = "--fail-open", description = "Sets failureModeAllow: true.")
  boolean failOpen;

  @Override
  public Integer call() throws InterruptedException {
    LocalGateway gateway;
    GatewayConfig cfg;
    try {
      cfg = config();
      gateway = LocalGateway.start(cfg);
    } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
      System.err.println("pointsman local-gateway: " + e.getMessage());
      return 2;
    }
    new Shutdown(List.of(gateway), Duration.ofSeconds(10)).installHook();
    PickerSection p = cfg.picker();
    if (!p.plaintext() && p.caFile() == null && p.caPem() == null) {
      System.err.println(
          "pointsman local-gateway: picker.caFile is not set, so the picker's certificate must be"
              + " signed by a CA in the JDK's trust store; a picker with grpc.tls: self-signed is"
              + " not trusted (set picker.caFile: .pointsman/picker.pem, or --picker-ca FILE)");
    }
    System.out.printf(
        "pointsman local-gateway: listening on %s:%d (%s), picker %s (%s%s), %s%s%n",
        cfg.listen().host(),
        gateway.port(),
        cfg.listen().tls(),
        cfg.picker().address(),
        cfg.picker().tls(),
        cfg.picker().caFile() == null ? "" : ", trusting " + cfg.picker().caFile(),
        cfg.failureModeAllow() ? "fail-open" : "fail-closed",
        gateway.adminPort().map(a -> ", admin on " + cfg.admin().host() + ":" + a).orElse(""));
    new CountDownLatch(1).await();
    return 0;
  }

  /** The configuration the flags describe: the file (or defaults) with every override applied. */
  public GatewayConfig config() {
    return overrides(config == null ? GatewayConfig.parse("{}") : GatewayConfig.load(config));
  }

  private GatewayConfig overrides(GatewayConfig c) {
    GatewayConfig out = c;
    if (port != null || bind != null) {
      ListenSection listen = c.listen();
      listen = port == null ? listen : listen.withPort(port);
      listen = bind == null ? listen : listen.withHost(bind);
      out =
          new GatewayConfig(
              listen,
              c.picker(),
              c.failureModeAllow(),
              c.fallbackEndpoints(),
              c.timeouts(),
              c.limits(),
              c.admin());
    }
    if (adminPort != null || (bind != null && out.admin() != null)) {
      AdminSection admin = out.admin() == null ? new AdminSection(null, null) : out.admin();
      out =
          out.withAdmin(
              new AdminSection(
                  adminPort == null ? admin.port() : adminPort,
                  bind == null ? admin.host() : bind));
    }
    if (picker != null || pickerCa != null || pickerPlaintext) {
      PickerSection p = out.picker();
      String address = picker == null ? p.address() : picker;
      out =
          out.withPicker(
              pickerPlaintext
                  ? PickerSection.plaintext(address)
                  : new PickerSection(
                      address,
                      "tls",
                      pickerCa == null ? p.caFile() : pickerCa.toString(),
                      pickerCa == null ? p.caPem() : null,
                      p.authority()));
    }
    return failOpen ? out.withFailureModeAllow(true) : out;
  }
}
