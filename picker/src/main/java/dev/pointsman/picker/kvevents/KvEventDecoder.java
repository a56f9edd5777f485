package dev.pointsman.picker.kvevents;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * Decodes vLLM's msgpack {@code EventBatch} payloads, in every encoding vLLM has published (see
 * {@code docs/kv-events.md}): the batch as a positional array {@code [ts, events, dp_rank?]} or as
 * a map {@code {ts, events, data_parallel_rank}}; each event as a tagged array {@code
 * ["BlockStored", block_hashes, parent_block_hash, token_ids, block_size, lora_id?, medium?,
 * lora_name?, ...]} or a map whose {@code type} names it; block hashes as integers (up to unsigned
 * 64-bit) or bytes. Fields it does not use are skipped, so newer fields do not break it. Stateless
 * and thread-safe.
 */
public final class KvEventDecoder {
  private static final int MAX_ITEMS = 1 << 20;

  /** Decodes one payload; throws with a bounded reason on anything else. */
  public EventBatch decode(byte[] payload) throws KvEventFormatException {
    try (MessageUnpacker u = MessagePack.newDefaultUnpacker(payload)) {
      EventBatch batch = batch(u);
      if (u.hasNext()) {
        throw new KvEventFormatException("batch", "trailing bytes after the event batch");
      }
      return batch;
    } catch (MessagePackException | IOException e) {
      throw new KvEventFormatException("msgpack", "not valid msgpack: " + e.getMessage(), e);
    }
  }

  private EventBatch batch(MessageUnpacker u) throws IOException, KvEventFormatException {
    ValueType type = u.getNextFormat().getValueType();
    double ts = Double.NaN;
    Integer rank = null;
    Events events = null;
    if (type == ValueType.ARRAY) {
      int n = u.unpackArrayHeader();
      if (n < 2) {
        throw new KvEventFormatException("batch", "batch array of " + n + " (expected >= 2)");
      }
      ts = number(u, "ts");
      events = events(u);
      for (int i = 2; i < n; i++) {
        if (i == 2) {
          rank = optionalInt(u);
        } else {
          u.skipValue();
        }
      }
    } else if (type == ValueType.MAP) {
      int n = u.unpackMapHeader();
      for (int i = 0; i < n; i++) {
        switch (key(u)) {
          case "ts" -> ts = number(u, "ts");
          case "events" -> events = events(u);
          case "data_parallel_rank" -> rank = optionalInt(u);
          default -> u.skipValue();
        }
      }
    } else {
      throw new KvEventFormatException("batch", "batch is a " + type + " (expected array or map)");
    }
    if (events == null || Double.isNaN(ts)) {
      throw new KvEventFormatException("batch", "batch without ts or events");
    }
    return new EventBatch(ts, events.list, rank, events.unknown);
  }

  private record Events(List<KvEvent> list, int unknown) {}

  private Events events(MessageUnpacker u) throws IOException, KvEventFormatException {
    int n = arrayHeader(u, "events");
    List<KvEvent> list = new ArrayList<>(n);
    int unknown = 0;
    for (int i = 0; i < n; i++) {
      KvEvent e = event(u, i);
      if (e == null) {
        unknown++;
      } else {
        list.add(e);
      }
    }
    return new Events(list, unknown);
  }

  /** One event, or null for a well-formed event of an unknown type. */
  private KvEvent event(MessageUnpacker u, int index) throws IOException, KvEventFormatException {
    Fields f = new Fields();
    ValueType type = u.getNextFormat().getValueType();
    if (type == ValueType.ARRAY) {
      int n = u.unpackArrayHeader();
      if (n < 1 || u.getNextFormat().getValueType() != ValueType.STRING) {
        throw bad(index, "an array event must start with its type name");
      }
      f.type = u.unpackString();
      String[] order = positions(f.type);
      for (int i = 1; i < n; i++) {
        f.read(u, i - 1 < order.length ? order[i - 1] : "", index);
      }
    } else if (type == ValueType.MAP) {
      int n = u.unpackMapHeader();
      for (int i = 0; i < n; i++) {
        f.read(u, key(u), index);
      }
    } else {
      throw bad(index, "event is a " + type + " (expected array or map)");
    }
    return f.build(index);
  }

  /** Field order of the positional encoding, after the tag (vLLM's struct declaration order). */
  private static String[] positions(String type) {
    return switch (type) {
      case "BlockStored" ->
          new String[] {
            "block_hashes",
            "parent_block_hash",
            "token_ids",
            "block_size",
            "lora_id",
            "medium",
            "lora_name"
          };
      case "BlockRemoved" -> new String[] {"block_hashes", "medium"};
      default -> new String[0];
    };
  }

  private final class Fields {
    String type;
    long[] hashes;
    Long parent;
    boolean parentSeen;
    int[] tokens;
    int blockSize = -1;
    String medium;
    String adapter;

    void read(MessageUnpacker u, String name, int index)
        throws IOException, KvEventFormatException {
      switch (name) {
        case "type" -> type = string(u, index, "type");
        case "block_hashes" -> hashes = hashes(u, index);
        case "parent_block_hash" -> {
          parentSeen = true;
          parent = u.tryUnpackNil() ? null : hash(u, index);
        }
        case "token_ids" -> tokens = ints(u, index);
        case "block_size" -> blockSize = (int) integer(u, index, "block_size");
        case "medium" -> medium = u.tryUnpackNil() ? null : string(u, index, "medium");
        case "lora_name" -> adapter = u.tryUnpackNil() ? null : string(u, index, "lora_name");
        default -> u.skipValue();
      }
    }

    KvEvent build(int index) throws KvEventFormatException {
      if (type == null) {
        throw bad(index, "event without a type");
      }
      try {
        return switch (type) {
          case "BlockStored" -> {
            if (hashes == null || tokens == null || blockSize < 0 || !parentSeen) {
              throw bad(index, "BlockStored without block_hashes, parent, token_ids or block_size");
            }
            yield new KvEvent.BlockStored(hashes, parent, tokens, blockSize, adapter, medium);
          }
          case "BlockRemoved" -> {
            if (hashes == null) {
              throw bad(index, "BlockRemoved without block_hashes");
            }
            yield new KvEvent.BlockRemoved(hashes, medium);
          }
          case "AllBlocksCleared" -> new KvEvent.AllBlocksCleared();
          default -> null;
        };
      } catch (IllegalArgumentException e) {
        throw bad(index, type + ": " + e.getMessage());
      }
    }
  }

  private static KvEventFormatException bad(int index, String message) {
    return new KvEventFormatException("event", "events[" + index + "]: " + message);
  }

  private static String key(MessageUnpacker u) throws IOException, KvEventFormatException {
    if (u.getNextFormat().getValueType() != ValueType.STRING) {
      throw new KvEventFormatException("batch", "map key is not a string");
    }
    return u.unpackString();
  }

  private static int arrayHeader(MessageUnpacker u, String what)
      throws IOException, KvEventFormatException {
    if (u.getNextFormat().getValueType() != ValueType.ARRAY) {
      throw new KvEventFormatException("batch", what + " is not an array");
    }
    int n = u.unpackArrayHeader();
    if (n > MAX_ITEMS) {
      throw new KvEventFormatException(
          "batch", what + ": " + n + " items (expected <= " + MAX_ITEMS + ")");
    }
    return n;
  }

  private static double number(MessageUnpacker u, String what)
      throws IOException, KvEventFormatException {
    ValueType t = u.getNextFormat().getValueType();
    if (t == ValueType.FLOAT) {
      return u.unpackDouble();
    }
    if (t == ValueType.INTEGER) {
      return u.unpackLong();
    }
    throw new KvEventFormatException("batch", what + " is a " + t + " (expected a number)");
  }

  private static Integer optionalInt(MessageUnpacker u) throws IOException, KvEventFormatException {
    if (u.tryUnpackNil()) {
      return null;
    }
    if (u.getNextFormat().getValueType() != ValueType.INTEGER) {
      throw new KvEventFormatException("batch", "data_parallel_rank is not an integer");
    }
    return u.unpackInt();
  }

  private static String string(MessageUnpacker u, int index, String what)
      throws IOException, KvEventFormatException {
    if (u.getNextFormat().getValueType() != ValueType.STRING) {
      throw bad(index, what + " is not a string");
    }
    return u.unpackString();
  }

  private static long integer(MessageUnpacker u, int index, String what)
      throws IOException, KvEventFormatException {
    if (u.getNextFormat().getValueType() != ValueType.INTEGER) {
      throw bad(index, what + " is not an integer");
    }
    if (u.getNextFormat() == MessageFormat.UINT64) {
      return u.unpackBigInteger().longValue();
    }
    return u.unpackLong();
  }

  private static int[] ints(MessageUnpacker u, int index)
      throws IOException, KvEventFormatException {
    int n = arrayHeader(u, "events[" + index + "].token_ids");
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      long v = integer(u, index, "a token id");
      if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        throw bad(index, "token id " + v + " (expected a 32-bit id)");
      }
      out[i] = (int) v;
    }
    return out;
  }

  private static long[] hashes(MessageUnpacker u, int index)
      throws IOException, KvEventFormatException {
    int n = arrayHeader(u, "events[" + index + "].block_hashes");
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = hash(u, index);
    }
    return out;
  }

  /** An integer hash as is; a bytes hash as its low 64 bits, big-endian. */
  private static long hash(MessageUnpacker u, int index)
      throws IOException, KvEventFormatException {
    ValueType t = u.getNextFormat().getValueType();
    if (t == ValueType.INTEGER) {
      return integer(u, index, "a block hash");
    }
    if (t == ValueType.BINARY) {
      int len = u.unpackBinaryHeader();
      if (len < 1 || len > 64) {
        throw bad(index, "block hash of " + len + " bytes (expected 1..64)");
      }
      byte[] b = u.readPayload(len);
      long v = 0;
      for (int i = Math.max(0, len - 8); i < len; i++) {
        v = (v << 8) | (b[i] & 0xFF);
      }
      return v;
    }
    throw bad(index, "block hash is a " + t + " (expected integer or bytes)");
  }
}
