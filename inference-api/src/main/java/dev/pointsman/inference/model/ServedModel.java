package dev.pointsman.inference.model;

import java.util.Objects;

/**
 * One entry of the {@code /v1/models} listing.
 *
 * @param id the model id
 * @param ownedBy the owner shown to clients ({@code pointsman})
 * @param parent the base model of an adapter, else null
 */
public record ServedModel(String id, String ownedBy, String parent) {
  public ServedModel {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(ownedBy, "ownedBy");
  }
}
