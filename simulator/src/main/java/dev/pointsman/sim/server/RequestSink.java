package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.RequestResult;

/** Receives one request's engine events, on the driver thread. */
interface RequestSink {
  /** Output token {@code generated} (1-based) was produced. */
  void onToken(int generated);

  /** The request finished. */
  void onFinish(RequestResult result);

  /** The engine refused the request. */
  void onRejected(String message);

  /**
   * The engine restarted with the request live, or is restarting: the connection goes away, as when
   * the server process dies.
   */
  void onLost();
}
