package dev.pointsman.bench.routing.suite;

import dev.pointsman.bench.routing.scenario.PodGroup;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Public on-demand GPU prices (the shipped {@code prices/gpu-prices.yaml}, with their sources and
 * date), and the hourly cost of a fleet: every pod costs its GPUs (the tensor-parallel size of its
 * profile) times its GPU type's price per GPU-hour.
 *
 * @param currency e.g. USD
 * @param region where the prices apply
 * @param retrieved when and how they were read
 * @param prices one per GPU type
 */
record GpuPrices(String currency, String region, String retrieved, List<Price> prices) {
  static final String RESOURCE = "/dev/pointsman/bench/prices/gpu-prices.yaml";

  GpuPrices {
    prices = List.copyOf(prices);
  }

  /**
   * One GPU type's price, from an instance's hourly price and its GPU count.
   *
   * @param gpu the simulator's GPU profile name
   * @param instance the instance type priced
   * @param instanceUsdPerHour its on-demand price per hour
   * @param gpusPerInstance its GPUs
   */
  record Price(String gpu, String instance, double instanceUsdPerHour, int gpusPerInstance) {
    Price {
      if (!(instanceUsdPerHour > 0) || Double.isInfinite(instanceUsdPerHour)) {
        throw new IllegalArgumentException(
            gpu + ".instanceUsdPerHour: " + instanceUsdPerHour + " (expected a price > 0)");
      }
      if (gpusPerInstance < 1) {
        throw new IllegalArgumentException(
            gpu + ".gpusPerInstance: " + gpusPerInstance + " (expected >= 1)");
      }
    }

    double perGpuHour() {
      return instanceUsdPerHour / gpusPerInstance;
    }
  }

  /** The shipped prices. */
  static GpuPrices shipped() {
    try (InputStream in = GpuPrices.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      return YamlFiles.read(in, GpuPrices.class, "gpu-prices.yaml");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  /** The price of one GPU of type {@code gpu} per hour. */
  double perGpuHour(String gpu) {
    for (Price p : prices) {
      if (p.gpu().equals(gpu)) {
        return p.perGpuHour();
      }
    }
    throw new IllegalArgumentException(
        "gpu-prices: no price for '" + gpu + "' (expected one of " + names() + ")");
  }

  private List<String> names() {
    return prices.stream().map(Price::gpu).toList();
  }

  /** The hourly cost of {@code fleet}: pods × GPUs per pod × price per GPU-hour. */
  double fleetPerHour(List<PodGroup> fleet) {
    GpuProfiles profiles = GpuProfiles.builtIn();
    double sum = 0;
    for (int g = 0; g < fleet.size(); g++) {
      PodGroup p = fleet.get(g);
      int gpus = profiles.forEntry("fleet[" + g + "]", p.gpu(), p.shape()).tensorParallel();
      sum += p.count() * gpus * perGpuHour(p.gpu());
    }
    return sum;
  }
}
