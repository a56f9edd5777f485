package dev.pointsman.extproc;

/** How Envoy sends bodies to the picker; must match the Envoy filter's processing mode. */
public enum BodyMode {
  /**
   * Envoy streams the body and drops its copy; the picker holds the headers reply until the body
   * ends, decides, then sends it back chunk by chunk. What the Endpoint Picker Protocol requires.
   */
  FULL_DUPLEX_STREAMED,
  /** Envoy buffers the whole body, after the headers reply, and expects one body reply. */
  BUFFERED,
  /** Envoy does not send the body (response side only). */
  NONE
}
