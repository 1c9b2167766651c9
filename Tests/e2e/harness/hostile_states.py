"""State files a peer could write into a synced library to make a launch cost memory (issue 43): a valid state
bloated with fields this version does not know, and one past the size the app reads at all. Shared by
test_state_safety.py and Tests/benchmarks/state_bounds.py."""
import json

MIB = 1 << 20
# StateFileBytes.limit: a file larger than this is set aside from its size alone.
STATE_FILE_LIMIT = 1 << 30


def bloated_state(state, string_mib=50, nested_mib=50, small_fields=100000):
    """`state` (with at least one image) as bytes, with a `string_mib` MiB unknown string at the top, a
    `nested_mib` MiB unknown field nested some hundred levels deep (objects and arrays) in its first image, and
    `small_fields` small unknown fields at the top."""
    head = dict(state)
    galleries = head.pop("galleries")
    image = json.dumps(galleries[0]["images"][0])[:-1]
    depth = 200
    element = b'{"k":[1,2,3]},'
    count = nested_mib * MIB // len(element)
    nested = (b'{"a":' * depth + b"[" + element * (count - 1) + element[:-1] + b"]" + b"}" * depth)
    first = dict(galleries[0], images=[])
    gallery_text = json.dumps(first).encode()
    images = [image.encode() + b', "nested": ' + nested + b"}"] + [
        json.dumps(i).encode() for i in galleries[0]["images"][1:]]
    gallery_text = gallery_text.replace(b'"images": []', b'"images": [' + b", ".join(images) + b"]")
    parts = [b'"future": "' + b"x" * (string_mib * MIB) + b'"']
    parts += [b'"galleries": [' + b", ".join([gallery_text] + [json.dumps(g).encode() for g in galleries[1:]]) + b"]"]
    parts += [json.dumps(k).encode() + b": " + json.dumps(v).encode() for k, v in head.items()]
    parts += [b'"small%d": %d' % (index, index) for index in range(small_fields)]
    return b"{" + b", ".join(parts) + b"}\n"


def write_oversized_state(path, state):
    """`state`, then zero bytes up to one byte past STATE_FILE_LIMIT: a hole on disk (sparse), which a reader that
    takes the file whole must still hold in memory."""
    with open(path, "wb") as f:
        f.write(json.dumps(state).encode())
        f.truncate(STATE_FILE_LIMIT + 1)
