"""Writes the vLLM KV-event fixtures the picker's decoder tests read (one hex file each).

The struct declarations restate the field lists and msgspec options of vLLM's
vllm/distributed/kv_events.py at two points of its history (facts from the public source,
vllm-project/vllm):
  * "positional": commit b4e69e0 (the v0.9 line) -- EventBatch and KVCacheEvent both
    array_like=True, tag=True; block hashes are ints; BlockStored has no medium.
  * "map": commit 0181ea3 (current main) -- neither is array_like, so the batch and each event
    are maps, the event tag under "type"; block hashes are ExternalBlockHash = bytes | int (bytes
    by default, ints with VLLM_KV_EVENTS_USE_INT_BLOCK_HASHES=1); BlockStored carries medium,
    lora_name and defaulted extras.
  * "mixed": the array_like batch with map events that releases between the two used.
Encoded with msgspec itself (0.22), as vLLM does. Run: python make_fixtures.py
"""

from typing import Any

import msgspec


# --- positional (v0.9 line) ---
class PBatch(msgspec.Struct, array_like=True, omit_defaults=True, gc=False):
    ts: float
    events: list[Any]


class PEvent(msgspec.Struct, array_like=True, omit_defaults=True, gc=False, tag=True):
    pass


class PBlockStored(PEvent, tag="BlockStored"):
    block_hashes: list[int]
    parent_block_hash: int | None
    token_ids: list[int]
    block_size: int
    lora_id: int | None


class PBlockRemoved(PEvent, tag="BlockRemoved"):
    block_hashes: list[int]


class PAllBlocksCleared(PEvent, tag="AllBlocksCleared"):
    pass


# --- map (current main) ---
class MBatch(msgspec.Struct, omit_defaults=True, gc=False):
    ts: float
    events: list[Any]
    data_parallel_rank: int | None = None


class MEvent(msgspec.Struct, omit_defaults=True, gc=False, tag=True):
    pass


class MBlockStored(MEvent, tag="BlockStored"):
    block_hashes: list[bytes | int]
    parent_block_hash: bytes | int | None
    token_ids: list[int]
    block_size: int
    lora_id: int | None
    medium: str | None
    lora_name: str | None
    extra_keys: list[tuple[Any, ...] | None] | None = None
    group_idx: int | None = None
    kv_cache_spec_kind: str | None = None
    kv_cache_spec_sliding_window: int | None = None


class MBlockRemoved(MEvent, tag="BlockRemoved"):
    block_hashes: list[bytes | int]
    medium: str | None
    group_idx: int | None = None


class MAllBlocksCleared(MEvent, tag="AllBlocksCleared"):
    pass


# --- mixed: positional batch, map events ---
class XBatch(msgspec.Struct, array_like=True, omit_defaults=True, gc=False):
    ts: float
    events: list[Any]
    data_parallel_rank: int | None = None


def h(n: int) -> bytes:
    """A 32-byte block hash (vLLM's sha256 digests are 32 bytes) whose low 64 bits are n."""
    return bytes(24) + n.to_bytes(8, "big")


enc = msgspec.msgpack.Encoder()
fixtures = {
    "positional.hex": PBatch(
        ts=1.5,
        events=[
            PBlockStored([11, 12], None, [1, 2, 3, 4, 5, 6, 7, 8], 4, None),
            PBlockStored([13], 12, [9, 10, 11, 12], 4, None),
            PBlockRemoved([12, 13]),
            PAllBlocksCleared(),
        ],
    ),
    "map.hex": MBatch(
        ts=2.25,
        events=[
            MBlockStored([h(11), h(12)], None, [1, 2, 3, 4, 5, 6, 7, 8], 4, None, "GPU", None),
            MBlockStored([h(13)], h(12), [9, 10, 11, 12], 4, None, "GPU", "sql-lora",
                         extra_keys=[("sql-lora",)], group_idx=0),
            MBlockRemoved([h(13)], "GPU"),
            MBlockStored([h(99)], None, [7, 7, 7, 7], 4, None, "CPU", None),
            MAllBlocksCleared(),
        ],
        data_parallel_rank=0,
    ),
    "map-int.hex": MBatch(
        ts=3.0,
        events=[MBlockStored([(1 << 64) - 5], None, [1, 2, 3, 4], 4, None, "GPU", None)],
        data_parallel_rank=1,
    ),
    "mixed.hex": XBatch(
        ts=4.0,
        events=[MBlockStored([h(21)], None, [5, 6, 7, 8], 4, None, None, None)],
        data_parallel_rank=0,
    ),
}
for name, batch in fixtures.items():
    with open(name, "w") as f:
        f.write(enc.encode(batch).hex() + "\n")
