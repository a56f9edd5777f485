package dev.pointsman.picker.config;

import dev.pointsman.picker.extproc.PickerOptions;
import java.util.Locale;

/**
 * How the picker speaks the Endpoint Picker Protocol.
 *
 * @param dataPlane {@code original-dst} (default: an ORIGINAL_DST cluster, the destination is one
 *     {@code ip:port}) or {@code override-host} (Envoy's override_host policy: the destination is
 *     the primary then the fallbacks)
 * @param conformanceTestHooks the Gateway API Inference Extension conformance hooks (default false;
 *     test only: with them on, any client can choose its pod)
 */
public record ProtocolSection(String dataPlane, Boolean conformanceTestHooks) {
  public static final ProtocolSection DEFAULTS = new ProtocolSection(null, null);

  public ProtocolSection {
    dataPlane = dataPlane == null ? "original-dst" : dataPlane.toLowerCase(Locale.ROOT);
    conformanceTestHooks = conformanceTestHooks != null && conformanceTestHooks;
    kind(dataPlane);
  }

  /** The options the ext_proc service runs with. */
  public PickerOptions toOptions() {
    return new PickerOptions(kind(dataPlane), conformanceTestHooks);
  }

  private static PickerOptions.DataPlane kind(String dataPlane) {
    return switch (dataPlane) {
      case "original-dst" -> PickerOptions.DataPlane.ORIGINAL_DST;
      case "override-host" -> PickerOptions.DataPlane.OVERRIDE_HOST;
      default ->
          throw new IllegalArgumentException(
              "dataPlane: '" + dataPlane + "' (expected original-dst or override-host)");
    };
  }
}
