package dev.pointsman.picker.datastore;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One pool's definition with its change counter and cached view. The version is bumped after any
 * change to an endpoint's health that a snapshot shows; readers rebuild when it moved.
 */
final class PoolEntry {

  final PoolDefinition definition;
  final AtomicLong version = new AtomicLong();
  volatile PoolView cache;

  PoolEntry(PoolDefinition definition) {
    this.definition = definition;
  }
}
