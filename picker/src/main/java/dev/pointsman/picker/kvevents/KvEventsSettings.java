package dev.pointsman.picker.kvevents;

import dev.pointsman.picker.scheduling.Endpoint;

/**
 * A pool's subscription to its engines' KV-cache events ({@code pools[].kvEvents}).
 *
 * @param enabled subscribe to every endpoint of the pool; default false
 * @param port the engines' PUB port; default vLLM's {@value #DEFAULT_PORT} ({@code
 *     --kv-events-config '{"endpoint": "tcp://*:5557"}'})
 * @param replayPort the engines' ROUTER replay port, 0 for none; default {@value
 *     #DEFAULT_REPLAY_PORT} (vLLM has no replay socket unless {@code replay_endpoint} is set)
 * @param topic the topic subscribed to (a prefix); default {@code ""}, every topic, as vLLM's
 *     default topic is empty
 * @param replayTimeoutMillis how long a replay may take before the endpoint's entries are dropped
 *     as unreliable; default 2000
 * @param maxBlocksPerEndpoint engine blocks remembered per endpoint; default {@value
 *     #DEFAULT_MAX_BLOCKS}
 * @param scoring let the prefix scorer use the precise index for requests whose token ids are
 *     known; default false (the approximate text index)
 * @param tokenizer the model's {@code tokenizer.json}, to know requests' token ids; null: none,
 *     every request is matched by the approximate index
 * @param offloadedCredit what a prompt block an engine holds in CPU memory (offloaded, {@code
 *     medium: CPU}) is worth against one in GPU memory, 0–1: the share of its prefill the load
 *     saves; default {@value #DEFAULT_OFFLOADED_CREDIT}, the CPU tier's weight in llm-d's KV-cache
 *     indexer (Dynamo's router credits host-memory hits 0.75)
 */
public record KvEventsSettings(
    Boolean enabled,
    Integer port,
    Integer replayPort,
    String topic,
    Integer replayTimeoutMillis,
    Integer maxBlocksPerEndpoint,
    Boolean scoring,
    String tokenizer,
    Double offloadedCredit) {

  public static final int DEFAULT_PORT = 5557;
  public static final int DEFAULT_REPLAY_PORT = 5558;
  public static final int DEFAULT_MAX_BLOCKS = 65_536;
  public static final double DEFAULT_OFFLOADED_CREDIT = 0.8;

  /** The endpoint label that overrides {@link #port} for one endpoint. */
  public static final String PORT_LABEL = "pointsman.dev/kv-events-port";

  /** The endpoint label that overrides {@link #replayPort} for one endpoint. */
  public static final String REPLAY_PORT_LABEL = "pointsman.dev/kv-replay-port";

  /** Events off. */
  public static final KvEventsSettings OFF =
      new KvEventsSettings(false, null, null, null, null, null, null, null, null);

  public KvEventsSettings {
    enabled = enabled != null && enabled;
    port = port == null ? DEFAULT_PORT : port;
    replayPort = replayPort == null ? DEFAULT_REPLAY_PORT : replayPort;
    topic = topic == null ? "" : topic;
    replayTimeoutMillis = replayTimeoutMillis == null ? 2000 : replayTimeoutMillis;
    maxBlocksPerEndpoint = maxBlocksPerEndpoint == null ? DEFAULT_MAX_BLOCKS : maxBlocksPerEndpoint;
    scoring = scoring != null && scoring;
    offloadedCredit = offloadedCredit == null ? DEFAULT_OFFLOADED_CREDIT : offloadedCredit;
    if (!(offloadedCredit >= 0 && offloadedCredit <= 1)) {
      throw new IllegalArgumentException(
          "kvEvents.offloadedCredit: " + offloadedCredit + " (expected 0..1)");
    }
    checkPort("kvEvents.port", port, 1);
    checkPort("kvEvents.replayPort", replayPort, 0);
    if (replayTimeoutMillis < 1 || replayTimeoutMillis > 60_000) {
      throw new IllegalArgumentException(
          "kvEvents.replayTimeoutMillis: " + replayTimeoutMillis + " (expected 1..60000)");
    }
    if (maxBlocksPerEndpoint < 1) {
      throw new IllegalArgumentException(
          "kvEvents.maxBlocksPerEndpoint: " + maxBlocksPerEndpoint + " (expected >= 1)");
    }
    if (tokenizer != null && !java.nio.file.Files.isReadable(java.nio.file.Path.of(tokenizer))) {
      throw new IllegalArgumentException(
          "kvEvents.tokenizer: '" + tokenizer + "' (expected a readable tokenizer.json file)");
    }
  }

  /** Events on with vLLM's ports, on {@code port} and {@code replayPort}. */
  public static KvEventsSettings on(int port, int replayPort) {
    return new KvEventsSettings(true, port, replayPort, null, null, null, null, null, null);
  }

  /** The PUB URL of {@code endpoint}: its host, the pool's port unless its label says another. */
  String pubUrl(Endpoint endpoint) {
    return url(endpoint, PORT_LABEL, port);
  }

  /** The replay URL of {@code endpoint}, or null when it has no replay socket. */
  String replayUrl(Endpoint endpoint) {
    String url = url(endpoint, REPLAY_PORT_LABEL, replayPort);
    return url.endsWith(":0") ? null : url;
  }

  private static String url(Endpoint endpoint, String label, int fallback) {
    String address = endpoint.address();
    String host = address.substring(0, address.lastIndexOf(':'));
    String override = endpoint.labels().get(label);
    int p = fallback;
    if (override != null) {
      try {
        p = Integer.parseInt(override.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "endpoint " + address + " label " + label + ": '" + override + "' (expected a port)");
      }
      checkPort(label, p, 0);
    }
    return "tcp://" + host + ":" + p;
  }

  private static void checkPort(String what, int port, int min) {
    if (port < min || port > 65535) {
      throw new IllegalArgumentException(what + ": " + port + " (expected " + min + "..65535)");
    }
  }
}
