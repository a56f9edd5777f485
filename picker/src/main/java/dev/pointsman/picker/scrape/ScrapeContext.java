package dev.pointsman.picker.scrape;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/** What every {@link TargetTask} of one {@link Scraper} shares. */
record ScrapeContext(
    ScraperConfig config,
    ScrapeHttp http,
    ScheduledExecutorService executor,
    LongSupplier nanoTime,
    ScrapeListener listener,
    ScrapeObserver observer,
    Semaphore permits,
    ScrapeBudget budget) {}
