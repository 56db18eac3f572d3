"""A run's frames as its events table stores them: compact JSON, deflated against a preset dictionary
of what frames say over and over (keys, reasons, messages, the shapes of a pod's and a workload's
changes). A frame is about 300 bytes of JSON and a run of 50,000 pods has 250,000 of them (100 MiB
a run, issue #14's "compact event storage"); packed, 40-60 bytes, for 13 µs of CPU a frame.

Each frame is packed on its own, so any one is read without its neighbours (a resume reads from a
sequence number on). The first byte names the format: FORMAT_V1 is this dictionary, which must
never change (a new dictionary gets a new byte). Rows stored before frames were packed hold their
JSON as it was (text on SQLite, its UTF-8 bytes on PostgreSQL) and are read as such.
"""

import json
import zlib
from typing import Any

from django.db import models

FORMAT_V1 = 1
# Whatever a frame repeats, the most frequent last (deflate finds near matches in fewer bits).
_DICTIONARY_V1 = (
    b'{"event":null,"time":0.0,"changes":[],"end":0.0}'
    b'{"op":"node","name":"","unschedulable":false,"ready":true,"taints":[],"labels":{"kubernetes.io/hostname":"",'
    b'"topology.kubernetes.io/zone":""},"allocatable":{"cpu":4000,"memory":17179869184,"pods":110}},'
    b'{"op":"workload","kind":"ReplicaSet","key":"default/","name":"","replicas":1,"ready":0,"available":0,'
    b'"owner":"Deployment/","revision":"1"}{"op":"workload","kind":"Deployment","key":"default/","name":"",'
    b'"replicas":1,"ready":0,"available":0,"owner":null,"revision":"1"}{"op":"workload","kind":"StatefulSet"'
    b'{"op":"workload","kind":"DaemonSet"{"op":"workload","kind":"Job"'
    b'{"type":"Warning","reason":"FailedScheduling","object":"Pod/default/","message":"0/3 nodes are available: '
    b'3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."}'
    b'"reason":"Killing","message":"Stopping container c"'
    b'{"type":"Normal","reason":"ScalingReplicaSet","object":"Deployment/default/","message":"Scaled up replica set '
    b' from 0 to 1"}"reason":"SuccessfulDelete","message":"Deleted pod: "'
    b'{"op":"pod~","key":"default/","phase":"Running","ready":true},{"op":"workload~","kind":"ReplicaSet",'
    b'"key":"default/","ready":1,"available":1},{"op":"workload~","kind":"Deployment","key":"default/","ready":1,'
    b'"available":1}]}'
    b'{"event":{"seq":1,"time":1.0,"type":"Normal","reason":"Pulled","object":"Pod/default/","message":'
    b'"Container image \\"nginx\\" already present on machine"},"time":1.0,"changes":[]}'
    b'{"event":{"seq":1,"time":1.0,"type":"Normal","reason":"Created","object":"Pod/default/","message":'
    b'"Created container: c"},"time":1.0,"changes":[]}'
    b'{"event":{"seq":1,"time":1.0,"type":"Normal","reason":"Started","object":"Pod/default/","message":'
    b'"Started container c"},"time":1.0,"changes":[]}'
    b'{"event":{"seq":1,"time":0.0,"type":"Normal","reason":"SuccessfulCreate","object":"ReplicaSet/default/",'
    b'"message":"Created pod: "},"time":0.0,"changes":[{"op":"pod","key":"default/","name":"","namespace":"default",'
    b'"node":null,"phase":"Pending","ready":false,"deleting":false,"owner":"ReplicaSet/","nominated":null,'
    b'"priority":0,"requests":{"cpu":100,"memory":134217728},"evictAt":null}]}'
    b'{"event":{"seq":1,"time":0.0,"type":"Normal","reason":"Scheduled","object":"Pod/default/","message":'
    b'"Successfully assigned default/ to "},"time":0.0,"changes":[{"op":"pod~","key":"default/","node":""}]}'
)
_LEVEL = 6
_WINDOW = -15  # raw deflate: the format byte says what it is, no zlib header or checksum needed
# Primed once; each frame copies them (priming with the dictionary costs more than the frame).
_packer = zlib.compressobj(_LEVEL, zlib.DEFLATED, _WINDOW, 9, zlib.Z_DEFAULT_STRATEGY, _DICTIONARY_V1)
_unpacker = zlib.decompressobj(_WINDOW, _DICTIONARY_V1)


def pack(frame: dict[str, Any]) -> bytes:
    text = json.dumps(frame, separators=(",", ":"), ensure_ascii=False).encode()
    packer = _packer.copy()
    return bytes((FORMAT_V1,)) + packer.compress(text) + packer.flush()


def unpack(stored: bytes | memoryview | str) -> Any:
    """A stored frame, packed or as JSON (a row from before frames were packed)."""
    if isinstance(stored, str):
        return json.loads(stored)
    data = bytes(stored)
    if data[:1] == bytes((FORMAT_V1,)):
        unpacker = _unpacker.copy()
        return json.loads(unpacker.decompress(data[1:]) + unpacker.flush())
    return json.loads(data)


class PackedFrameField(models.BinaryField):
    """A frame (a JSON object) stored packed; read back as the object."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else unpack(value)

    def value_to_string(self, obj: Any) -> str:
        """As dumpdata writes it: the frame's JSON (loaddata's to_python reads it back)."""
        return json.dumps(self.value_from_object(obj), separators=(",", ":"))

    def to_python(self, value: Any) -> Any:
        return unpack(value) if isinstance(value, bytes | memoryview | str) else value

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if isinstance(value, dict):
            value = pack(value)
        return super().get_db_prep_value(value, connection, prepared)
