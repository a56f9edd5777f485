package dev.pointsman.picker.scrape;

import java.util.List;

/**
 * Maps one endpoint's parsed exposition to engine-neutral metrics. An instance serves a single
 * endpoint and may keep state between scrapes (previous counter values, for rates); calls for one
 * instance must not overlap.
 */
public interface MetricsMapper {

  /**
   * Maps the samples of one scrape.
   *
   * @param samples the samples, already filtered to {@link Engine#metricNames()}
   * @param scrapedAtNanos the scrape time on the monotonic clock
   */
  Mapping map(List<Sample> samples, long scrapedAtNanos);
}
