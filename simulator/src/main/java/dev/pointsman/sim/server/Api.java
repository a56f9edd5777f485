package dev.pointsman.sim.server;

/** The OpenAI generation APIs a simulated pod serves, each with its response shapes. */
enum Api {
  /** {@code /v1/chat/completions}. */
  CHAT("chatcmpl-"),
  /** {@code /v1/completions}. */
  COMPLETION("cmpl-"),
  /** {@code /v1/responses}. */
  RESPONSES("resp_");

  private final String idPrefix;

  Api(String idPrefix) {
    this.idPrefix = idPrefix;
  }

  /** The prefix of response ids, as OpenAI's. */
  String idPrefix() {
    return idPrefix;
  }
}
