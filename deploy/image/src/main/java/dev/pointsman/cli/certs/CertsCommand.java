package dev.pointsman.cli.certs;

import picocli.CommandLine.Command;

/** {@code pointsman certs}: certificate chores for installs (the chart's certificate Job). */
@Command(
    name = "certs",
    mixinStandardHelpOptions = true,
    description =
        "Makes the TLS certificates an install needs. The Helm chart's certificate Job runs"
            + " 'certs ensure' once per generated Secret; see docs/install.md.",
    footerHeading = "%nExample:%n",
    footer = {
      "  ./pointsman certs ensure --secret pointsman-picker-tls --namespace pointsman \\",
      "      --dns pointsman-picker.pointsman.svc --ca-name 'pointsman picker CA'"
    },
    subcommands = {EnsureCommand.class})
public final class CertsCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
