package dev.pointsman.picker.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.config.PickerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What the picker's flags make of a file: binding per mode, port moves, the certificate file. */
class PickerCommandTest {
  private static final String POOLS =
      """
      models: [{name: m, pools: [{pool: p}]}]
      pools:
        - name: p
          endpoints:
            - {address: "127.0.0.1:8001", labels: {gpu: L4}}
            - {address: "127.0.0.1:8002"}
        - name: q
          endpoints: [{address: "10.0.0.9:8000"}]
      """;

  @TempDir Path dir;

  private PickerCommand parse(String yaml, String... flags) throws Exception {
    Path file = Files.writeString(dir.resolve("picker.yaml"), yaml);
    PickerCommand c = new PickerCommand();
    String[] args = new String[flags.length + 2];
    args[0] = "--config";
    args[1] = file.toString();
    System.arraycopy(flags, 0, args, 2, flags.length);
    new CommandLine(c).parseArgs(args);
    return c;
  }

  @Test
  void localModeBindsLoopbackUnlessTheFileSaysOtherwise() throws Exception {
    PickerConfig defaults = parse(POOLS).config();
    PickerConfig explicit =
        parse(POOLS + "grpc: {host: 0.0.0.0}\nadmin: {host: 0.0.0.0}\n").config();

    assertThat(defaults.grpc().host()).isEqualTo("127.0.0.1");
    assertThat(defaults.admin().host()).isEqualTo("127.0.0.1");
    assertThat(explicit.grpc().host()).isEqualTo("0.0.0.0");
    assertThat(explicit.admin().host()).isEqualTo("0.0.0.0");
  }

  @Test
  void kubernetesModeBindsEveryInterfaceUnlessTheFileSaysOtherwise() throws Exception {
    PickerConfig defaults = parse("pools: [{name: x}]\n", "--kubernetes").config();
    PickerConfig explicit =
        parse("pools: [{name: x}]\nadmin: {host: 127.0.0.1, port: 9191}\n", "--kubernetes")
            .config();

    assertThat(defaults.grpc().host()).isEqualTo("0.0.0.0");
    assertThat(defaults.admin().host()).isEqualTo("0.0.0.0");
    assertThat(explicit.admin().host()).isEqualTo("127.0.0.1");
    assertThat(explicit.admin().port()).isEqualTo(9191);
    assertThat(explicit.grpc().host()).isEqualTo("0.0.0.0");
  }

  @Test
  void bindAndPortFlagsOverrideTheFile() throws Exception {
    PickerConfig c =
        parse(POOLS, "--bind", "::1", "--grpc-port", "19002", "--admin-port", "19090").config();

    assertThat(c.grpc().host()).isEqualTo("::1");
    assertThat(c.admin().host()).isEqualTo("::1");
    assertThat(c.grpc().port()).isEqualTo(19002);
    assertThat(c.admin().port()).isEqualTo(19090);
  }

  @Test
  void flagsKeepTheRecordingAndShadowSections() throws Exception {
    PickerConfig c =
        parse(
                POOLS + "recording: {enabled: true, maxFiles: 2}\nshadow: {enabled: true}\n",
                "--grpc-port",
                "19002")
            .config();

    assertThat(c.recording().enabled()).isTrue();
    assertThat(c.recording().maxFiles()).isEqualTo(2);
    assertThat(c.shadow().enabled()).isTrue();
  }

  @Test
  void endpointPortBaseRenumbersTheEndpointsInFileOrderKeepingHostsAndLabels() throws Exception {
    PickerConfig c = parse(POOLS, "--endpoint-port-base", "18001").config();

    assertThat(c.pools().get(0).endpoints())
        .extracting(e -> e.address())
        .containsExactly("127.0.0.1:18001", "127.0.0.1:18002");
    assertThat(c.pools().get(0).endpoints().get(0).labels()).containsEntry("gpu", "L4");
    assertThat(c.pools().get(1).endpoints().get(0).address()).isEqualTo("10.0.0.9:18003");
  }

  @Test
  void localModeWritesTheSelfSignedCertificateOnlyWhereAsked() throws Exception {
    PickerCommand local = parse(POOLS);
    assertThat(local.certificateFile(local.config()))
        .isEqualTo(PickerCommand.DEFAULT_CERTIFICATE_OUT);
    PickerCommand kubernetes = parse("pools: [{name: x}]\n", "--kubernetes");
    assertThat(kubernetes.certificateFile(kubernetes.config())).isNull();
    PickerCommand plaintext = parse(POOLS, "--plaintext");
    assertThat(plaintext.certificateFile(plaintext.config())).isNull();
    // a certificate from files is trusted some other way: no file appears in a pod's folder
    PickerCommand files =
        parse(POOLS + "grpc: {tls: files, certChain: c.pem, privateKey: k.pem}\n");
    assertThat(files.certificateFile(files.config())).isNull();

    Path out = dir.resolve("sub/picker.pem");
    assertThat(CertificateFile.write(out, "-----BEGIN CERTIFICATE-----\n")).isEqualTo(out);
    CertificateFile.write(out, "second\n");
    assertThat(Files.readString(out, StandardCharsets.US_ASCII)).isEqualTo("second\n");
    try (var listed = Files.list(out.getParent())) {
      assertThat(listed).containsExactly(out); // no temporary file left behind
    }
  }

  @Test
  void flagsKeepTheSummarySection() throws Exception {
    PickerConfig c =
        parse(
                POOLS
                    + "summary: {enabled: true, cluster: east, certChain: a.crt, privateKey: a.key,"
                    + " clientCa: ca.pem}\n",
                "--grpc-port",
                "19002")
            .config();

    assertThat(c.summary().enabled()).isTrue();
    assertThat(c.summary().cluster()).isEqualTo("east");
  }

  @Test
  void summaryCertificateFilesThatCannotBeReadAreAOneLineErrorNamingThePath() throws Exception {
    Path missing = dir.resolve("missing.crt");
    String yaml =
        POOLS
            + "grpc: {port: 0, tls: plaintext}\nadmin: {port: 0}\n"
            + "summary: {enabled: true, port: 0, certChain: '%s', privateKey: '%s', clientCa: '%s'}\n"
                .formatted(missing, missing, missing);
    Path file = Files.writeString(dir.resolve("picker.yaml"), yaml);
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream saved = System.err;
    int code;
    try {
      System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
      code = new CommandLine(new PickerCommand()).execute("--config", file.toString());
    } finally {
      System.setErr(saved);
    }

    assertThat(code).isEqualTo(2);
    assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains("pointsman picker: tls.privateKey: cannot read " + missing)
        .doesNotContain("\tat ");
  }
}
