package dev.pointsman.gateway.app;

import dev.pointsman.gateway.config.GatewayConfig;
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
    description = {
      "Runs the local gateway: an HTTPS (HTTP/2 and HTTP/1.1) listener that asks the picker",
      "over ext_proc where each request goes and forwards it there, as Envoy does with the",
      "shipped config. For laptops, the demo and tests; production uses Envoy."
    })
public final class LocalGatewayCommand implements Callable<Integer> {

  @Option(names = "--config", description = "Gateway config file (default: all defaults).")
  Path config;

  @Option(names = "--port", description = "Override listen.port.")
  Integer port;

  @Option(names = "--picker", description = "Override picker.address (host:port).")
  String picker;

  @Option(names = "--picker-ca", description = "PEM file of the picker's certificate.")
  Path pickerCa;

  @Option(names = "--picker-plaintext", description = "Talk to the picker without TLS.")
  boolean pickerPlaintext;

  @Option(names = "--fail-open", description = "Set failureModeAllow: true.")
  boolean failOpen;

  @Override
  public Integer call() throws InterruptedException {
    LocalGateway gateway;
    GatewayConfig cfg;
    try {
      cfg = overrides(config == null ? GatewayConfig.parse("{}") : GatewayConfig.load(config));
      gateway = LocalGateway.start(cfg);
    } catch (IllegalArgumentException | IllegalStateException | UncheckedIOException e) {
      System.err.println("pointsman local-gateway: " + e.getMessage());
      return 2;
    }
    new Shutdown(List.of(gateway), Duration.ofSeconds(10)).installHook();
    System.out.printf(
        "pointsman local-gateway: listening on :%d (%s), picker %s (%s), %s%n",
        gateway.port(),
        cfg.listen().tls(),
        cfg.picker().address(),
        cfg.picker().tls(),
        cfg.failureModeAllow() ? "fail-open" : "fail-closed");
    new CountDownLatch(1).await();
    return 0;
  }

  private GatewayConfig overrides(GatewayConfig c) {
    GatewayConfig out = c;
    if (port != null) {
      out =
          new GatewayConfig(
              c.listen().withPort(port),
              c.picker(),
              c.failureModeAllow(),
              c.fallbackEndpoints(),
              c.timeouts(),
              c.limits(),
              c.admin());
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
