package dev.pointsman.cli.certs;

import picocli.CommandLine.Command;

/** {@code pointsman certs}: certificate chores for installs (the chart's certificate Job). */
@Command(
    name = "certs",
    mixinStandardHelpOptions = true,
    description = "Certificate chores for installs.",
    subcommands = {EnsureCommand.class})
public final class CertsCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}
