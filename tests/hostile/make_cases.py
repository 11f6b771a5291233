#!/usr/bin/python3
"""make_cases.py — writes the hostile-input battery that tests/test_hostile.c runs:
files/ (the inputs) and cases.tsv (one command line per input).

Each case is GROUP<TAB>WANT<TAB>ARGS: samplab ARGS must exit 2 with an empty
stdout and one printable line on stderr that contains WANT (the file's name
and the position: a byte, a line and column, an entry, a key, a tensor), in a
few seconds, with AddressSanitizer and LeakSanitizer silent. In ARGS, @/ is
this folder's files/ and @T/ a scratch folder the test fills with what git
cannot hold (a symbolic link to /dev/zero, a directory named like a file).

The inputs are what an attacker or an unlucky user hands over: every
truncation of a .npy, a 2-D .npy and a .safetensors file; headers that lie;
wrong dtypes, huge shapes, duplicate keys, bad offsets; NaN, infinite,
negative, all-zero and overflowing weights; empty files; control bytes, NUL,
terminal escapes, byte-order marks and other UTF-8 oddities; counts given as
draws and draws as counts; ids >= V; binary files given to text readers; and
arguments with newlines, escapes, absurd values and missing values, over every
subcommand. Run it from anywhere: python3 tests/hostile/make_cases.py
"""
import json
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, 'files')
cases = []
files = {}


def put(name, data):
    if isinstance(data, str):
        data = data.encode('latin1')
    assert name not in files, name
    files[name] = data
    return '@/' + name


def case(group, want, args):
    assert '\t' not in want and '\t' not in args and '\n' not in args, args
    cases.append((group, want, args))


def npy(header, data, major=1, pad=True):
    """A .npy image: header text (padded with spaces and a newline to 64 bytes as np.save does)."""
    h = header.encode('latin1') if isinstance(header, str) else header
    pre = 10 if major == 1 else 12
    if pad:
        total = pre + len(h) + 1
        h = h + b' ' * ((64 - total % 64) % 64) + b'\n'
    ln = struct.pack('<H', len(h)) if major == 1 else struct.pack('<I', len(h))
    return b'\x93NUMPY' + bytes([major, 0]) + ln + h + data


def st(header, data):
    """A .safetensors image: header JSON text padded with spaces to a multiple of 8."""
    h = header.encode('utf-8', errors='surrogatepass') if isinstance(header, str) else header
    return struct.pack('<Q', len(h)) + h + data


def st_obj(d, data, pad=True):
    h = json.dumps(d, separators=(',', ':')).encode()
    if pad:
        h += b' ' * ((8 - len(h) % 8) % 8)
    return st(h, data)


F4 = struct.pack('<4f', 0.4, 0.3, 0.2, 0.1)
F6 = struct.pack('<6f', 1, 2, 3, 3, 2, 1)
HDR = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
HDR2 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
ENT = {'dtype': 'F32', 'shape': [4], 'data_offsets': [0, 16]}

# ------------------------------------------------------------------ .npy
good = npy(HDR, F4)
for k in range(len(good)):  # every truncation of a 1-D .npy, alternating readers
    f = put('trunc%03d.npy' % k, good[:k])
    cmd = ['draw --probs %s --method cdf', 'gof --probs %s --method cdf --n 10', 'exact --method cdf --probs %s',
           'pipeline --framework hf --logits %s'][k % 4]
    case('npy', 'trunc%03d.npy: byte' % k, cmd % f)
good2 = npy(HDR2, F6)
for k in range(0, len(good2), 3):  # truncations of a 2-D .npy through the per-step readers
    f = put('steps_trunc%03d.npy' % k, good2[:k])
    cmd = ['replay --framework torch --probs %s', 'check --framework hf --logits %s --tokens 0,1'][k % 2]
    case('npy', 'steps_trunc%03d.npy: byte' % k, cmd % f)

npy_bad = [
    # (name, header, data, want)
    ('key_in_comment', '{"descr": "<f8", "fortran_order": False, "shape": (4,)} # \'descr\': \'<f4\', \'shape\': (8,)',
     F4, 'the shape needs 32 data bytes, the file has 16'),
    ('extra_key', "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}", F4, "key 'x'"),
    ('dup_descr', "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'descr': '<f4'}", F4, 'appears twice'),
    ('dup_shape', "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (4,)}", F4, 'appears twice'),
    ('no_shape', "{'descr': '<f4', 'fortran_order': False}", F4, "lacks 'shape'"),
    ('no_descr', "{'fortran_order': False, 'shape': (4,)}", F4, "lacks 'descr'"),
    ('empty_dict', "{}", F4, "lacks 'descr'"),
    ('not_dict', "['descr', '<f4']", F4, 'not a {...} dictionary'),
    ('tuple_of_dict', "({'descr': '<f4', 'fortran_order': False, 'shape': (4,)},)", F4, 'not a {...} dictionary'),
    ('big_endian', "{'descr': '>f4', 'fortran_order': False, 'shape': (4,)}", F4, "dtype '>f4'"),
    ('int32', "{'descr': '<i4', 'fortran_order': False, 'shape': (4,)}", F4, "dtype '<i4'"),
    ('float16', "{'descr': '<f2', 'fortran_order': False, 'shape': (8,)}", F4, "dtype '<f2'"),
    ('object', "{'descr': '|O', 'fortran_order': False, 'shape': (4,)}", F4, "dtype '|O'"),
    ('structured', "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,)}", F4, 'a list'),
    ('subarray', "{'descr': ('<f4', (2,)), 'fortran_order': False, 'shape': (2,)}", F4, 'a tuple inside a tuple'),
    ('descr_bytes', "{'descr': b'<f4', 'fortran_order': False, 'shape': (4,)}", F4, 'descr is a bytes literal'),
    ('descr_nul', "{'descr': '<f4\\x00', 'fortran_order': False, 'shape': (4,)}", F4, "dtype '<f4\\x00'"),
    ('descr_esc', "{'descr': '\\x1b[31m', 'fortran_order': False, 'shape': (4,)}", F4, "dtype '\\x1b[31m'"),
    ('fortran_int', "{'descr': '<f4', 'fortran_order': 0, 'shape': (4,)}", F4, 'fortran_order is an integer'),
    ('fortran_2d', "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2)}", F4, 'fortran_order True'),
    ('shape_int', "{'descr': '<f4', 'fortran_order': False, 'shape': 4}", F4, 'malformed shape: an integer'),
    ('shape_paren_int', "{'descr': '<f4', 'fortran_order': False, 'shape': (4)}", F4, 'malformed shape: an integer'),
    ('shape_list', "{'descr': '<f4', 'fortran_order': False, 'shape': [4]}", F4, 'a list'),
    ('shape_neg', "{'descr': '<f4', 'fortran_order': False, 'shape': (-4,)}", F4, 'shape entry 0 is negative'),
    ('shape_bool', "{'descr': '<f4', 'fortran_order': False, 'shape': (True,)}", F4, 'entry 0 is True'),
    ('shape_float', "{'descr': '<f4', 'fortran_order': False, 'shape': (4.0,)}", F4, 'entry 0 is a float'),
    ('shape_str', "{'descr': '<f4', 'fortran_order': False, 'shape': ('4',)}", F4, 'entry 0 is a string'),
    ('shape_none', "{'descr': '<f4', 'fortran_order': False, 'shape': (None,)}", F4, 'entry 0 is None'),
    ('shape_huge', "{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,)}", F4, 'too large'),
    ('shape_2p62', "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904,)}", F4, 'too large'),
    ('shape_mul_overflow', "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", F4,
     'too large'),
    ('shape_9d', "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,4)}", F4, '9 dimensions'),
    ('shape_nested', "{'descr': '<f4', 'fortran_order': False, 'shape': ((4,),)}", F4, 'a tuple inside a tuple'),
    ('shape_leading_zero', "{'descr': '<f4', 'fortran_order': False, 'shape': (04,)}", F4, 'leading zero'),
    ('shape_double_underscore', "{'descr': '<f4', 'fortran_order': False, 'shape': (1__0,)}", F4,
     'a malformed number'),
    ('shape_bigger', "{'descr': '<f4', 'fortran_order': False, 'shape': (5,)}", F4, 'needs 20 data bytes'),
    ('shape_smaller', "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", F4, 'needs 12 data bytes'),
    ('shape_zero', "{'descr': '<f4', 'fortran_order': False, 'shape': (0,)}", b'', 'empty vector'),
    ('shape_scalar', "{'descr': '<f4', 'fortran_order': False, 'shape': ()}", F4[:4], 'a 0-D array'),
    ('shape_2d_as_vector', "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)}", F4, 'a 2-D array'),
    ('unterminated_str', "{'descr': '<f4, 'fortran_order': False, 'shape': (4,)}", F4, 'a dict entry without'),
    ('str_newline', "{'descr': '<f4\n', 'fortran_order': False, 'shape': (4,)}", F4, 'a string broken by a line end'),
    ('no_close', "{'descr': '<f4', 'fortran_order': False, 'shape': (4,),", F4, "no closing '}'"),
    ('trailing_garbage', HDR + 'x', F4, 'bytes after the header dict'),
    ('trailing_vtab', HDR + '\x0b', F4, 'bytes after the header dict'),
    ('indented_tail', HDR + '\n x', F4, 'an indented line'),
    ('continuation', '\\\n ' + HDR, F4, 'a line continuation'),
    ('fstring', "{'descr': f'<f4', 'fortran_order': False, 'shape': (4,)}", F4, 'an f-string'),
    ('name_value', "{'descr': float32, 'fortran_order': False, 'shape': (4,)}", F4, 'a name, not a literal'),
    ('set_value', "{'descr': '<f4', 'fortran_order': False, 'shape': {4}}", F4, 'a dict or set'),
    ('deep_parens', "{'descr': '<f4', 'fortran_order': False, 'shape': ((((((((((4,))))))))))}", F4,
     'nested too deeply'),
    ('latin1_key', "{'descr\xe9': '<f4', 'fortran_order': False, 'shape': (4,)}", F4, "key 'descr\\xc3\\xa9'"),
    ('N_escape', "{'descr': '\\N{LESS-THAN SIGN}f4', 'fortran_order': False, 'shape': (4,)}", F4, '\\N{...}'),
    ('bad_hex_escape', "{'descr': '\\x3', 'fortran_order': False, 'shape': (4,)}", F4, 'a truncated \\x'),
    ('terminal_escape_key', "{'\x1b[2J': 1}", F4, 'byte'),
    ('nan_weights', HDR, struct.pack('<4f', 0.5, float('nan'), 0.2, 0.1), 'entry 1 is NaN'),
    ('inf_weights', HDR, struct.pack('<4f', 0.5, float('inf'), 0.2, 0.1), 'entry 1 is infinite'),
    ('neg_weights', HDR, struct.pack('<4f', 0.5, -0.25, 0.2, 0.1), 'entry 1 is negative'),
    ('zero_weights', HDR, struct.pack('<4f', 0, 0, 0, -0.0), 'all 4 weights are zero'),
    ('overflow_weights', "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)}", struct.pack('<2d', 1e308, 1e308),
     'the running sum of the weights overflows at entry 1'),
]
for name, h, data, want in npy_bad:
    f = put(name + '.npy', npy(h, data))
    if 'weights' in name:
        cmd = 'draw --probs %s --method alias'
    elif name == 'shape_2d_as_vector':
        cmd = 'gof --probs %s --method cdf --n 5'
    else:
        cmd = ['draw --probs %s --method cdf', 'power --probs %s --n 100', 'calibrate --probs %s --method cdf --n 10 --seeds 2',
               'draw --framework numpy --probs %s'][len(cases) % 4]
    case('npy', '%s.npy: %s' % (name, want) if 'weights' in name or name.startswith('shape_2d') or name == 'shape_zero'
         or name == 'shape_scalar' else name + '.npy: byte', cmd % f)
    case('npy_msg', want, cmd % f)
# versions, lengths and the NUL padding NumPy refuses
vbad = [('v1_1', b'\x93NUMPY\x01\x01' + good[8:], 'byte 6: .npy format version 1.1'),
        ('v4', b'\x93NUMPY\x04\x00' + good[8:], 'byte 6: .npy format version 4.0'),
        ('v0', b'\x93NUMPY\x00\x00' + good[8:], 'byte 6: .npy format version 0.0'),
        ('hlen_past_end', good[:8] + b'\xff\x00' + good[10:], 'runs past the end of the file'),
        ('hlen_zero', good[:8] + b'\x00\x00' + good[10:], 'not a {...} dictionary'),
        ('hlen_huge_v2', b'\x93NUMPY\x02\x00' + struct.pack('<I', 0xfffffff0) + good[10:], 'runs past the end'),
        ('hlen_over_max', npy(HDR + ' ' * 10100, F4, 2, False), 'NumPy reads at most 10000'),
        ('nul_padding', good[:64 - 3] + b'\x00\x00\n' + good[64:], 'a NUL byte in the .npy header'),
        ('v3_bad_utf8', npy(HDR.replace("'x'", '') + '# \xff', F4, 3), 'a 3.0 header is UTF-8'),
        ('magic_only', b'\x93NUMPY', 'ends inside its version bytes'),
        ('wrong_magic', b'\x93NUMPZ' + good[6:], 'not a .npy file'),
        ('text_as_npy', b'1 2 3 4\n', 'not a .npy file'),
        ('empty', b'', 'not a .npy file')]
for name, data, want in vbad:
    f = put(name + '.npy', data)
    case('npy', name + '.npy: byte', 'draw --logits %s --method cdf' % f)
    case('npy_msg', want, 'replay --framework hf --logits %s' % f if name != 'text_as_npy' else
         'draw --logits %s --method greedy' % f)

# ------------------------------------------------------------------ .safetensors
good = st_obj({'logits': ENT}, F4)
for k in range(len(good)):
    f = put('trunc%03d.safetensors' % k, good[:k])
    cmd = ['draw --logits %s --method cdf', 'pipeline --framework llamacpp --logits %s',
           'compare --logits %s', 'gof --logits %s --method cdf --n 10'][k % 4]
    case('safetensors', 'trunc%03d.safetensors: ' % k, cmd % f)
st_bad = [
    ('meta_int', {'__metadata__': {'a': 1}, 'logits': ENT}, F4, 'maps "a" to an integer'),
    ('meta_nested', {'__metadata__': {'a': {'b': 'c'}}, 'logits': ENT}, F4, 'maps "a" to an object'),
    ('meta_list', {'__metadata__': ['a'], 'logits': ENT}, F4, '"__metadata__" is an array'),
    ('meta_str', {'__metadata__': 'abc', 'logits': ENT}, F4, '"__metadata__" is a string'),
    ('meta_tensor', {'__metadata__': ENT}, F4, '"__metadata__" maps "'),
    ('meta_bool', {'__metadata__': {'a': True}, 'logits': ENT}, F4, 'maps "a" to true'),
    ('no_tensors', {'__metadata__': {'a': 'b'}}, b'', 'holds no tensors'),
    ('overlap', {'a': ENT, 'b': dict(ENT, data_offsets=[8, 24])}, F4 + F4[:8], 'overlap the tensor before it'),
    ('gap', {'a': dict(ENT, data_offsets=[4, 20])}, b'\0' * 4 + F4, 'leave a gap'),
    ('reversed', {'a': dict(ENT, data_offsets=[16, 0])}, F4, 'end before they begin'),
    ('past_end', {'a': dict(ENT, data_offsets=[0, 20])}, F4, 'run past the 16 data bytes'),
    ('short', {'a': dict(ENT, data_offsets=[0, 12])}, F4, 'has 12 data bytes but shape [4] of F32 needs 16'),
    ('trailing', {'a': ENT}, F4 + b'xxxx', 'trailing bytes'),
    ('shape_bytes', {'a': dict(ENT, shape=[5])}, F4, 'has 16 data bytes but shape [5] of F32 needs 20'),
    ('shape_overflow', {'a': dict(ENT, shape=[2 ** 62, 8])}, F4, 'overflows 64 bits'),
    ('shape_float', {'a': dict(ENT, shape=[4.0])}, F4, 'shape entry 0 that is not a non-negative integer'),
    ('shape_neg', {'a': dict(ENT, shape=[-4])}, F4, 'shape entry 0 that is not a non-negative integer'),
    ('shape_str', {'a': dict(ENT, shape='4')}, F4, 'a shape that is not an array'),
    ('offsets3', {'a': dict(ENT, data_offsets=[0, 16, 16])}, F4, 'data_offsets that are not two'),
    ('offsets_neg', {'a': dict(ENT, data_offsets=[-1, 16])}, F4, 'data_offsets that are not two'),
    ('dtype_lower', {'a': dict(ENT, dtype='f32')}, F4, 'unknown dtype "f32"'),
    ('dtype_num', {'a': dict(ENT, dtype=32)}, F4, 'a dtype that is not a string'),
    ('dtype_esc', {'a': dict(ENT, dtype='\x1b[31m')}, F4, 'unknown dtype "\\x1b[31m"'),
    ('dtype_int', {'a': dict(ENT, dtype='I32')}, F4, 'has dtype I32'),
    ('dtype_bool', {'a': dict(ENT, dtype='BOOL', shape=[16])}, F4, 'has dtype BOOL'),
    ('no_dtype', {'a': {'shape': [4], 'data_offsets': [0, 16]}}, F4, 'lacks "dtype"'),
    ('no_offsets', {'a': {'dtype': 'F32', 'shape': [4]}}, F4, 'lacks "data_offsets"'),
    ('entry_int', {'a': 1}, F4, 'is not an object'),
    ('entry_null', {'a': None}, F4, 'is not an object'),
    ('scalar', {'a': dict(ENT, shape=[], data_offsets=[0, 4])}, F4[:4], 'is a scalar'),
    ('zero_len', {'a': dict(ENT, shape=[0], data_offsets=[0, 0])}, b'', 'no entries'),
    ('rows_no_row', {'a': dict(ENT, shape=[2, 2])}, F4, 'choose one with --row'),
    ('two_tensors', {'a': ENT, 'b': dict(ENT, data_offsets=[16, 32])}, F4 + F4, 'choose one with --tensor'),
    ('name_escape', {'\x1b[2Jlogits': ENT, 'b': dict(ENT, data_offsets=[16, 32])}, F4 + F4, '\\x1b[2Jlogits'),
    ('name_newline', {'a\nb': ENT, 'c': dict(ENT, data_offsets=[16, 32])}, F4 + F4, 'a\\x0ab'),
    ('nan_logits', {'logits': ENT}, struct.pack('<4f', 1, float('nan'), 0, 0), 'logit 1 is NaN'),
    ('ninf_logits', {'logits': ENT}, struct.pack('<4f', *[float('-inf')] * 4), 'all 4 logits are -infinite'),
    ('pinf_logits', {'logits': ENT}, struct.pack('<4f', 1, float('inf'), 0, 0), 'logit 1 is +infinite'),
]
for name, d, data, want in st_bad:
    f = put(name + '.safetensors', st_obj(d, data))
    cmd = 'draw --logits %s --method cdf' if 'logits' in name else \
        ['draw --probs %s --method cdf', 'pipeline --framework vllm --logits %s', 'exact --framework numpy --probs %s',
         'replay --framework llamacpp --logits %s'][len(cases) % 4]
    if name in ('rows_no_row', 'scalar', 'zero_len') and cmd.startswith('replay'):
        cmd = 'draw --probs %s --method cdf'
    case('safetensors', name + '.safetensors: ', cmd % f)
    case('safetensors_msg', want, cmd % f)
st_raw = [
    ('dup_tensor', '{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"a":{"dtype":"F32","shape":[4],'
                   '"data_offsets":[0,16]}}', F4, 'duplicate object key'),
    ('dup_field', '{"a":{"dtype":"F32","dtype":"F64","shape":[4],"data_offsets":[0,16]}}', F4, 'duplicate'),
    ('dup_meta', '{"__metadata__":{"a":"b","a":"c"},"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', F4,
     'duplicate'),
    ('array_root', '[1,2]', b'', 'an array, not an object'),
    ('string_root', '"x"', b'', 'not valid JSON'),
    ('trail_nul', '{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}\x00\x00', F4, 'not valid JSON'),
    ('trail_garbage', '{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}xx', F4, 'not valid JSON'),
    ('bom', '\ufeff{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', F4, 'not valid JSON'),
    ('nul_escape', '{"__metadata__":{"a":"\\u0000"},"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}', F4,
     'not valid JSON'),
    ('lone_surrogate', '{"__metadata__":{"a":"\\ud800"},"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}',
     F4, 'not valid JSON'),
    ('big_int', '{"a":{"dtype":"F32","shape":[18446744073709551616],"data_offsets":[0,16]}}', F4, 'not valid JSON'),
    ('deep', '[' * 5000 + ']' * 5000, b'', 'not valid JSON'),
    ('single_quotes', "{'a':{'dtype':'F32','shape':[4],'data_offsets':[0,16]}}", F4, 'not valid JSON'),
    ('trailing_comma', '{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},}', F4, 'not valid JSON'),
]
for name, h, data, want in st_raw:
    f = put(name + '.safetensors', st(h, data))
    cmd = 'draw --logits %s --method cdf'
    case('safetensors', name + '.safetensors: ', cmd % f)
    case('safetensors_msg', want, cmd % f)
st_len = [('hlen_huge', struct.pack('<Q', 2 ** 63) + good[8:], 'is over the 100000000'),
          ('hlen_past', struct.pack('<Q', 1000) + good[8:], 'runs past the end of the file'),
          ('hlen_zero', struct.pack('<Q', 0) + good[8:], 'not valid JSON'),
          ('tiny', b'\x01\x02\x03', 'too short for the 8-byte header length'),
          ('npy_as_st', npy(HDR, F4), 'is over the 100000000'),
          ('text_as_st', b'0.5 0.25 0.125 0.125\n', 'is over the 100000000')]
for name, data, want in st_len:
    f = put(name + '.safetensors', data)
    case('safetensors', name + '.safetensors: ', 'draw --probs %s --method cdf' % f)
    case('safetensors_msg', want, 'replay --framework torch --probs %s' % f)
# the tensor and row options against a valid file
twod = put('twod.safetensors', st_obj({'logits': dict(ENT, shape=[2, 2])}, F4))
case('safetensors', 'twod.safetensors: row 2 is out of range', 'draw --logits %s --row 2 --method cdf' % twod)
case('safetensors', 'twod.safetensors: no tensor "nope"', 'draw --logits %s --tensor nope --method cdf' % twod)
case('safetensors', 'no tensor "\\x1b[31m"', 'draw --logits %s --tensor "$(printf \'\\033[31m\')" --method cdf' % twod)
case('safetensors', 'twod.safetensors: row 5 is out of range',
     'report --logits %s --row 5 --no-plot --only ties --out @T/rep' % twod)
case('safetensors', 'twod.safetensors: no tensor "nope"',
     'report --logits %s --tensor nope --row 0 --no-plot --only cost --out @T/rep' % twod)
case('safetensors', 'twod.safetensors: tensor "logits" has shape [2,2], 2 rows: choose one with --row',
     'report --logits %s --no-plot --only ties,cost --out @T/rep' % twod)
case('safetensors', 'twod.safetensors: tensor "logits" has shape [2,2], 2 rows: choose one with --row',
     'gof --logits %s --method cdf --n 5' % twod)

# ------------------------------------------------------------------ text vectors
text_bad = [
    ('nul', '0.5 0.2\x00 0.3\n', 'line 1, column 8: a NUL byte'),
    ('nul_start', '\x000.5 0.5\n', 'line 1, column 1: a NUL byte'),
    ('escape', '0.5 \x1b[31m0.5\n', "line 1, entry 1: '\\x1b[31m0.5' is not a number (a control byte)"),
    ('bell', '0.5\x07 0.5\n', 'is not a number (a control byte)'),
    ('bom_mid', '0.5\n\xef\xbb\xbf0.5\n', 'a UTF-8 byte-order mark inside the text'),
    ('utf16', '\xff\xfe0\x00.\x005\x00', 'byte 0: UTF-16 text'),
    ('utf16be', '\xfe\xff\x000\x00.\x005', 'byte 0: UTF-16 text'),
    ('utf32', '\xff\xfe\x00\x000\x00\x00\x00', 'byte 0: UTF-32 text'),
    ('nbsp', '0.5\xc2\xa00.5\n', 'non-ASCII bytes'),
    ('unicode_minus', '0.5 \xe2\x88\x920.5\n', 'non-ASCII bytes'),
    ('fullwidth_digit', '\xef\xbc\x91 2\n', 'non-ASCII bytes'),
    ('overlong_utf8', '\xc0\xb1 2\n', 'non-ASCII bytes'),
    ('lone_continuation', '\x80\n', 'non-ASCII bytes'),
    ('empty_field', '1,,2\n', 'line 1, entry 1 is empty'),
    ('leading_comma', ',1,2\n', 'line 1, entry 0 is empty'),
    ('word', '1 2\nthree\n', "line 2, entry 2: 'three' is not a number"),
    ('long_token', '1 ' + '9' * 200 + '\n', 'line 1, column 3, entry 1: a token of 200 bytes'),
    ('empty', '', 'no numbers found'),
    ('comments_only', '# nothing\n   \n#\n', 'no numbers found'),
    ('nan', '1 nan 2\n', 'entry 1 is NaN'),
    ('inf', '1 inf 2\n', 'entry 1 is infinite'),
    ('neg', '1 -2 3\n', 'entry 1 is negative'),
    ('zero', '0 0 -0\n', 'all 3 weights are zero'),
    ('overflow', '1e308 1e308\n', 'the running sum of the weights overflows at entry 1'),
    ('hex_words', '0x 1\n', "line 1, entry 0: '0x' is not a number"),
    ('npy_as_text', npy(HDR, F4).decode('latin1'), 'byte 0: a .npy file (by its magic bytes)'),
    ('st_as_text', st_obj({'logits': ENT}, F4).decode('latin1'), 'byte 0: a .safetensors file'),
    ('zip_as_text', 'PK\x03\x04\x14\x00\x00\x00', 'byte 0: a zip archive'),
    ('gzip_as_text', '\x1f\x8b\x08\x00\x00\x00', 'byte 0: gzip-compressed'),
    ('json_as_text', '{"tokens": [1, 2]}\n', "line 1, entry 0: '{\"tokens\":' is not a number"),
]
for name, data, want in text_bad:
    f = put(name + '.txt', data)
    cmd = 'draw --probs %s --method cdf' if name in ('nan', 'inf', 'neg', 'zero', 'overflow') else \
        ['draw --logits %s --method cdf', 'gof --probs %s --method cdf --n 3', 'pipeline --framework tutorial --logits %s',
         'compare --logits %s', 'power --probs %s --n 50', 'exact --method cdf --probs %s',
         'calibrate --probs %s --method cdf --n 5 --seeds 2', 'bench --logits %s',
         'report --logits %s --no-plot --only ties --out @T/rep'][len(cases) % 9]
    case('text', name + '.txt: ', cmd % f)
    case('text_msg', want, cmd % f)
# logits the softmax refuses
for name, data, want in [('logit_nan', '1 nan', 'logit 1 is NaN'), ('logit_pinf', '1 inf 2', 'logit 1 is +infinite'),
                         ('logit_allninf', '-inf -inf', 'all 2 logits are -infinite')]:
    f = put(name + '.txt', data)
    for cmd in ['draw --logits %s --method cdf', 'gof --logits %s --method cdf --n 4', 'power --logits %s --n 40']:
        case('text', name + '.txt: ' + want, cmd % f)

# ------------------------------------------------------------------ draws files
ref = '--probs 3,2,2,1'
draws_bad = [
    ('out_of_range', '0 1 2\n3 4\n', 'line 2, column 3 (draw 5): token id 4 outside 0..3'),
    ('negative', '1 -1\n', "line 1, column 3 (draw 2): '-1' is not a token id"),
    ('float', '1.0 2.0\n', "'1.0' is not a token id: token ids are integers"),
    ('comma', '1,2,3\n', 'token ids are separated by whitespace only'),
    ('json', '{"tokens":[1,2]}\n', 'token ids are separated by whitespace only'),
    ('huge_id', '0 99999999999999999999999999\n', 'token id 99999999999999999999999999 outside 0..3'),
    ('long_field', '0' * 100 + '\n', 'a field of more than 64 bytes'),
    ('nul', '0 1\n2\x003\n', 'line 2, column 2: byte \\x00 is not text'),
    ('escape', '0 \x1b[31m1\n', 'line 1, column 3: byte \\x1b is not text'),
    ('del', '0 1\x7f\n', 'line 1, column 4: byte \\x7f is not text'),
    ('bom_mid', '0 1\n\xef\xbb\xbf2\n', "'\\xef\\xbb\\xbf2' is not a token id"),
    ('nbsp', '0\xc2\xa01\n', 'token ids are ASCII digits'),
    ('utf16', '\xff\xfe0\x00 \x001\x00', 'byte 0: UTF-16 text'),
    ('npy', npy(HDR, F4).decode('latin1'), 'byte 0: a .npy file'),
    ('safetensors', st_obj({'logits': ENT}, F4).decode('latin1'), 'byte 0: a .safetensors file'),
    ('counts_shape', '0\t3\n1\t2\n2\t0\n3\t1\n', "every line is 'i<TAB>count'"),
    ('counts_shape_big', '0\t300\n1\t200\n2\t200\n3\t100\n', 'the file looks like id<TAB>count lines'),
    ('empty', '', 'no draws'),
    ('blank', '\n \n\t\n', 'no draws'),
    ('word', '0 1 two\n', "line 1, column 5 (draw 3): 'two' is not a token id"),
    ('plus', '+1\n', "'+1' is not a token id"),
    ('hex', '0x1\n', "'0x1' is not a token id"),
]
for name, data, want in draws_bad:
    f = put(name + '.draws', data)
    case('draws', name + '.draws: ', 'gof %s --draws %s' % (ref, f))
    case('draws_msg', want, 'gof %s --draws %s --json' % (ref, f))
f = put('ok.draws', '0 1 2 3\n')
case('draws', 'ok.draws: line 1, column 7 (draw 4): token id 3 outside 0..2', 'gof --probs 1,1,1 --draws %s' % f)

counts_bad = [
    ('one_column', '3000\n2000\n2000\n3000\n', "line 1 has one field ('3000')"),
    ('draws_one_per_line', '0\n1\n3\n2\n', "line 1 has one field ('0')"),
    ('three_fields', '0 1 2\n', 'line 1 has 3 fields'),
    ('neg', '0\t5\n1\t-1\n2\t1\n3\t1\n', "line 2, column 3: '-1' is not a count: a count is never negative"),
    ('float', '0\t5\n1\t1.5\n2\t1\n3\t1\n', "'1.5' is not a count: a count is a whole number"),
    ('id_out', '0\t5\n4\t1\n', 'line 2: token id 4 outside 0..3'),
    ('id_word', 'a\t5\n', "line 1, column 1: 'a' is not a token id"),
    ('dup', '0\t5\n0\t1\n', 'line 2: token id 0 appears twice'),
    ('missing', '0\t5\n1\t6\n3\t2\n', 'no line for token id 2'),
    ('all_zero', '0\t0\n1\t0\n2\t0\n3\t0\n', 'no draws'),
    ('empty', '', 'no draws'),
    ('near_2p63', '0\t9223372036854775800\n1\t1\n2\t1\n3\t1\n', "line 1, column 3: '9223372036854775800' is not a count"),
    ('past_2p64', '0\t18446744073709551616\n1\t1\n2\t1\n3\t1\n', 'is not a count: larger than 2^53'),
    ('sum_past_2p53', '0\t4503599627370496\n1\t4503599627370496\n2\t1\n3\t0\n', 'line 3: the counts add up past 2^53'),
    ('nul', '0\t5\n1\t5\x00\n', 'line 2, column 4: byte \\x00 is not text'),
    ('escape', '0\t5\x1b[2J\n', 'line 1, column 4: byte \\x1b is not text'),
    ('long_line', '0\t' + '1' * 5000 + '\n', 'line 1 is longer than 4096 bytes'),
    ('npy', npy(HDR, F4).decode('latin1'), 'byte 0: a .npy file (by its magic bytes), not text counts'),
    ('gzip', '\x1f\x8b\x08\x00', 'byte 0: gzip-compressed'),
    ('utf16', '\xff\xfe0\x00\t\x005\x00', 'byte 0: UTF-16 text'),
    ('json', '{"counts":[1,2,3,4]}\n', 'line 1 has one field'),
    ('nbsp_count', '0\t5\xc2\xa0\n', "'5\\xc2\\xa0' is not a count: a count is ASCII digits"),
]
for name, data, want in counts_bad:
    f = put(name + '.counts', data)
    case('counts', name + '.counts: ', 'gof %s --counts %s' % (ref, f))
    case('counts_msg', want, 'gof %s --counts %s --json' % (ref, f))

# ------------------------------------------------------------------ per-step rows (replay, check)
steps_bad = [
    ('ragged', '1 2 3\n4 5\n', 'line 2 (step 1) has 2 numbers, line 1 (step 0) has 3'),
    ('nan_row', '1 2 3\n1 nan 3\n', 'step 1, entry 1 is NaN'),
    ('ninf_row', '1 2 3\n-inf -inf -inf\n', 'step 1 is all -inf'),
    ('word', '1 2 3\n4 x 6\n', "line 2, entry 1: 'x' is not a number"),
    ('nul', '1 2 3\n4 \x00 6\n', 'line 2, column 3: a NUL byte'),
    ('none', '# nothing\n\n', 'no steps'),
    ('npy', npy(HDR, F4).decode('latin1'), 'byte 0: a .npy file'),
]
for name, data, want in steps_bad:
    f = put(name + '.steps', data)
    case('steps', name + '.steps: ', 'replay --framework hf --logits %s' % f)
    case('steps_msg', want, 'check --framework hf --logits %s --tokens 0,1' % f)
f3d = put('three_d.npy', npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 2), }", F4))
# a 3-D [T, B, V] is a batch for hf and torch; the frameworks without batches keep the 2-D rule
case('steps', 'three_d.npy: a 3-D array', 'replay --framework numpy --probs %s' % f3d)
f4d = put('four_d.npy', npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 2), }", F4))
case('steps', 'four_d.npy: a 4-D array', 'replay --framework torch --probs %s' % f4d)
f1d = put('one_d.npy', npy(HDR, F4))
case('steps', 'one_d.npy: a 1-D array', 'replay --framework torch --probs %s' % f1d)
st3 = put('three_d.safetensors', st_obj({'logits': dict(ENT, shape=[1, 2, 2])}, F4))
case('steps', 'three_d.safetensors: tensor "logits" has shape [1,2,2]', 'replay --framework llamacpp --logits %s' % st3)
steps_ok = put('ok.steps', '1 2 3\n3 2 1\n')
tok = [('tokens_out', '0\n7\n', 'token id in 0..2'), ('tokens_count', '0\n1\n2\n', 'tokens_count.txt holds 3 tokens, but --logits @/ok.steps has T = 2 steps'),
       ('tokens_float', '0\n1.5\n', 'is not a token id'), ('tokens_nul', '0\n\x001\n', 'a NUL byte')]
for name, data, want in tok:
    f = put(name + '.txt', data)
    case('steps', want, 'check --framework hf --logits %s --tokens %s' % (steps_ok, f))
ctx = [('ctx_out', '1 9\n', 'context entry 1 (9) is not a token id in 0..2'),
       ('ctx_neg', '-1\n', "ctx_neg.txt: line 1, entry 0: '-1' is not a token id"), ('ctx_float', '0.5\n', "ctx_float.txt: line 1, entry 0: '0.5' is not a token id: token ids are integers"),
       ('ctx_bom16', '\xff\xfe1\x00', 'byte 0: UTF-16 text')]
for name, data, want in ctx:
    f = put(name + '.txt', data)
    case('steps', want, 'replay --framework hf --logits %s --context %s --repetition-penalty 1.2' % (steps_ok, f))
    case('steps', want, 'draw --framework hf --logits 1,2,3 --context %s --repetition-penalty 1.2' % f)

# ------------------------------------------------------------------ sweep specs
for name, data, want in [('sweep_nul', '{"studies": [\x00]}', 'byte 13 is NUL'),
                         ('sweep_esc', '{"studies": [{"name": "a\x1b[2J", "job": "nope"}]}', 'control character 0x1b'),
                         ('sweep_trunc', '{"studies": [{"name": "a", "job": "draw"', 'sweep_trunc.json:'),
                         ('sweep_array', '[1, 2]', 'sweep_array.json:'),
                         ('sweep_empty', '', 'sweep_empty.json:')]:
    f = put(name + '.json', data)
    case('special', want, 'sweep --spec %s --out @T/sweep' % f)
for cmd, want in [('sweep --spec @T/zero.txt --out @T/sweep', '--spec @T/zero.txt: larger than 64 MiB'),
                  ('sweep --spec @T/dir.txt --out @T/sweep', '--spec @T/dir.txt: Is a directory'),
                  ('sweep --spec @/utf16.txt --out @T/sweep', 'utf16.txt: byte 3 is NUL')]:
    case('special', want, cmd)

# ------------------------------------------------------------------ special files (made by the test under @T/)
for cmd, want in [('draw --probs @T/zero.txt --method cdf', '@T/zero.txt: a device, not a file'),
                  ('gof --probs 1,2 --draws @T/zero.txt', '@T/zero.txt: a device, not a file'),
                  ('gof --probs 1,2 --counts @T/zero.txt', '@T/zero.txt: a device, not a file'),
                  ('replay --framework torch --probs @T/zero.npy', '@T/zero.npy: a device, not a file'),
                  ('draw --logits @T/zero.safetensors --method cdf', '@T/zero.safetensors: a device, not a file'),
                  ('check --framework hf --logits @/ok.steps --tokens @T/zero.txt', '@T/zero.txt: a device'),
                  ('draw --probs @T/dir.txt --method cdf', '@T/dir.txt: a directory, not a file'),
                  ('gof --probs 1,2 --draws @T/dir.txt', '@T/dir.txt: a directory, not a file'),
                  ('gof --probs 1,2 --counts @T/dir.txt', '@T/dir.txt: a directory, not a file'),
                  ('replay --framework hf --logits @T/dir.txt', '@T/dir.txt: a directory, not a file'),
                  ('draw --probs @T/dir.npy --method cdf', '@T/dir.npy: a directory, not a file'),
                  ('draw --probs @T/null.txt --method cdf', '@T/null.txt: a device, not a file'),
                  ('draw --probs @T/dangling.txt --method cdf', '@T/dangling.txt: cannot open'),
                  ('gof --probs 1,2 --draws @T/dangling.txt', '@T/dangling.txt: cannot open'),
                  ('report --logits @T/zero.txt --no-plot --only ties --out @T/rep', '@T/zero.txt: a device'),
                  ('report --out @T/zero.txt/x --no-plot --only ties', '--out @T/zero.txt/x: not a folder'),
                  ('bench --logits @T/dir.txt', '@T/dir.txt: a directory'),
                  ('draw --probs /dev/stdin --method cdf </dev/zero', '/dev/stdin: a device, not a file'),
                  ('gof --probs 1,2 --draws - </dev/zero', '<stdin>: line 1, column 1: byte \\x00 is not text'),
                  ('gof --probs 1,2 --counts - </dev/zero', '<stdin>: line 1 is longer than 4096 bytes'),
                  ('gof --probs 1,2 --draws - </dev/urandom', '<stdin>: '),
                  ('gof --probs 1,2 --counts - </dev/urandom', '<stdin>: '),
                  ('gof --probs 1,2 --draws - </dev/null', '<stdin>: no draws'),
                  ('replay --framework hf --logits 1,2 --context /dev/zero --repetition-penalty 1.1', '/dev/zero: a device'),
                  ('check --framework hf --logits 1,2 --tokens -', '-: standard input is not read'),
                  ('draw --probs 1,2 --method "$(printf %0100000d 7)"', "unknown method '0000000"),
                  ('draw --probs "$(printf %05000d 7)x.txt" --method cdf', 'File name too long'),
                  ('draw --probs "1,$(printf %0200d 7)x" --method cdf', 'a token of 201 bytes'),
                  ('gof --probs 1,2 --draws @T/blank.draws', '@T/blank.draws: line 1048577: more than 1048576 blank bytes'),
                  ('gof --probs 1,2 --counts @T/blank.counts', '@T/blank.counts: line 65537: more than 65536 lines')]:
    case('special', want, cmd)

# ------------------------------------------------------------------ arguments, every subcommand
NL = '"$(printf \'a\\nb\')"'
ESC = '"$(printf \'\\033[2J\')"'
args_bad = [
    ('--n takes at most 1000000000000 (10^12)', 'gof --probs 1,2 --method cdf --n 18446744073709551615'),
    ('--n takes at most 1000000000000 (10^12)', 'draw --probs 1,2 --method cdf --n 18446744073709551615'),
    ('--n takes at most 1000000000000 (10^12)', 'rng --rng pcg32 --n 18446744073709551616'),
    ('--n takes a non-negative integer', 'draw --probs 1,2 --method cdf --n 1e20'),
    ('--n takes a non-negative integer', 'draw --probs 1,2 --method cdf --n -1'),
    ('--n takes a non-negative integer', 'draw --probs 1,2 --method cdf --n ""'),
    ('--seeds takes at most', 'calibrate --probs 1,2 --method cdf --n 5 --seeds 99999999999999'),
    ('--trials takes at most', 'power --probs 1,2 --n 100 --trials 18446744073709551615'),
    ('--trials must be between 1 and 100000, not 1000000000', 'power --probs 1,2 --n 100 --trials 1000000000'),
    ('--trials must be at most 100000, not 100000000', 'check --framework hf --logits 1,2 --tokens 0 --trials 100000000'),
    ('--null-reps must be at most 1000000, not 1000000000000', 'gof --probs 1,2 --method cdf --n 5 --null-reps 1000000000000'),
    ('--null-reps takes at most', 'gof --probs 1,2 --method cdf --n 5 --null-reps 18446744073709551615'),
    ('--jobs takes at most', 'report --jobs 18446744073709551615 --no-plot --only ties --out @T/rep'),
    ('--temperature takes a finite number', 'draw --logits 1,2 --method cdf --temperature 1e400'),
    ('--temperature takes a finite number', 'pipeline --framework hf --logits 1,2 --temperature inf'),
    ('--temperature takes a number', 'draw --logits 1,2 --method cdf --temperature nan'),
    ('--top-p takes a finite number', 'compare --logits 1,2 --top-p -inf'),
    ('--alpha takes a finite number', 'gof --probs 1,2 --method cdf --n 5 --alpha inf'),
    ('--target takes a finite number', 'power --probs 1,2 --n 100 --target 1e999'),
    ('--top-k takes an integer', 'pipeline --framework hf --logits 1,2 --top-k 99999999999999999999'),
    ('--row takes an integer', 'draw --logits 1,2 --row 99999999999999999999 --method cdf'),
    ("--seed: seed '340282366920938463463374607431768211456' is not below 2^128", 'draw --probs 1,2 --method cdf --seed 340282366920938463463374607431768211456'),
    ("--seed: seed '0x' has no digits after 0x", 'draw --probs 1,2 --method cdf --seed 0x'),
    ("--seed: seed 'a\\x0ab'", 'rng --rng pcg32 --seed ' + NL),
    ("--stream: stream '18446744073709551616' is not below 2^64", 'rng --rng pcg32 --stream 18446744073709551616'),
    ('--logits needs a value', 'bench --logits'),
    ('--probs needs a value', 'draw --method cdf --probs'),
    ('--probs needs a value, not the option', 'draw --probs --method cdf'),
    ('--tokens needs a value', 'check --framework hf --logits 1,2 --tokens'),
    ('-: standard input is not read', 'draw --probs - --method cdf'),
    ('-: standard input is not read', 'gof --logits - --method cdf --n 5'),
    ('-: standard input is not read', 'replay --framework hf --logits -'),
    ("unknown method 'a\\x0ab'", 'draw --probs 1,2 --method ' + NL),
    ("unknown method '\\x1b[2J'", 'gof --probs 1,2 --n 5 --method ' + ESC),
    ("unknown random source 'a\\x0ab'", 'draw --probs 1,2 --method cdf --rng ' + NL),
    ("unknown framework 'a\\x0ab'", 'draw --probs 1,2 --framework ' + NL),
    ("unknown framework '\\x1b[2J'", 'pipeline --logits 1,2 --framework ' + ESC),
    ("unknown option 'a\\x0ab'", 'gof ' + NL),
    ("unknown option '\\x1b[2J'", 'power ' + ESC),
    ("unknown command 'a\\x0ab'", NL),
    ("samplab: --probs: line 2, entry 2: 'b' is not a number", 'draw --probs "$(printf \'1,2\\nb\')" --method cdf'),
    ('a\\x0ab: cannot open', 'draw --probs ' + NL + ' --method cdf'),
    ("'\\x1b[2J' is not a number", 'draw --probs "1,$(printf \'\\033[2J\')" --method cdf'),
    ('--cpu takes avx2 or avx512, not', 'pipeline --framework hf --logits 1,2 --cpu ' + NL),
    ('--dtype takes float32 or float64', 'draw --framework torch --probs 1,2 --dtype ' + ESC),
    ('--only', 'report --only ' + NL + ' --no-plot --out @T/rep'),
    ('--fault', 'power --probs 1,2 --n 100 --fault ' + NL),
    ("unknown framework 'a\\x0ab'", 'compare --logits 1,2 --frameworks ' + NL),
    ('--top-k is not an option of method cdf: it needs --framework', 'draw --probs 1,2 --method cdf --top-k 3'),
    ('--min-p is not an option of method alias: it needs --framework', 'draw --logits 1,2 --method alias --min-p 0.1'),
    ('--n given twice', 'gof --probs 1,2 --method cdf --n 5 --n 6'),
    ('--alpha must be in (0,1)', 'gof --probs 1,2 --method cdf --n 5 --alpha 1'),
    ('give exactly one of --draws FILE, --counts FILE, --method M', 'gof --probs 1,2'),
    ('--method needs --n N', 'gof --probs 1,2 --method cdf'),
    ('give exactly one of --probs SRC and --logits SRC', 'draw --method cdf'),
    ('an empty name is neither a file nor an inline list', 'draw --probs "" --method cdf'),
    ('--n must be at least 1', 'draw --probs 1,2 --method cdf --n 0'),
    ('--n must be between 100 and 100000000', 'report --n 99999999999 --no-plot --out @T/rep'),
    ('--seed must be an integer below 2^64 - 100000', 'report --seed 18446744073709551615 --no-plot --out @T/rep'),
    ('--first-seed must be below 2^64', 'calibrate --probs 1,2 --method cdf --n 5 --seeds 2 --first-seed 0x10000000000000000'),
    ('--framework F is required', 'replay --logits 1,2'),
    ('--rng', 'rng'),
    ('temperature', 'draw --logits 1,2 --method cdf --temperature 0'),
    ('--temperature applies to --logits only', 'draw --probs 1,2 --method cdf --temperature 2'),
    ('--context', 'pipeline --framework hf --logits 1,2 --context 0'),
    ('samplab pipeline: --context: entry 0 (5) is not a token id in 0..1', 'pipeline --framework hf --logits 1,2 --context 5 --repetition-penalty 1.5'),
    ('samplab: --probs: entry 1 is empty', 'exact --method cdf --probs 1,,2'),
    ('inline: entry 2 is NaN', 'exact --method cdf --probs 1,2,nan'),
    ('inline: entry 1 is negative', 'calibrate --probs 1,-2 --method cdf --n 5 --seeds 2'),
    ('inline: all 2 weights are zero', 'power --probs 0,0 --n 100'),
    ('inline: the running sum of the weights overflows at entry 1', 'gof --probs 1e308,1e308 --method cdf --n 5'),
    ('inline: entry 1 is infinite', 'exact --framework torch --probs 1,inf'),
    ('inline: entry 1 is NaN', 'compare --logits 1,nan'),
    ('inline: entry 1 is +infinity', 'pipeline --framework llamacpp --logits 1,inf'),
    ('samplab: --probs: --tensor and --row apply to .safetensors files only', 'draw --probs 1,2 --tensor x --method cdf'),
    ('--tensor and --row apply to .safetensors files only', 'draw --probs @/ok.draws --row 1 --method cdf'),
    ('samplab: --logits: --tensor applies to .safetensors files only', 'replay --framework hf --logits 1,2 --tensor x'),
    # an inline list's bad entry names the option that gave it, in every command that reads one
    ("samplab: --tokens: entry 1: 'x' is not a token id", 'check --framework hf --logits @/ok.steps --tokens 1,x'),
    ('samplab: --tokens: entry 1 is empty', 'check --framework hf --logits @/ok.steps --tokens 1,,2'),
    ('samplab check: --tokens: entry 1 (7) is not a token id in 0..2', 'check --framework hf --logits @/ok.steps --tokens 0,7'),
    ("samplab: --context: entry 1: 'x' is not a token id", 'replay --framework hf --logits @/ok.steps --context 1,x --repetition-penalty 1.2'),
    ("samplab: --context: entry 0: 'y' is not a token id", 'draw --framework hf --logits 1,2,3 --context y,1 --repetition-penalty 1.2'),
    ("samplab: --context: entry 1: 'x' is not a token id", 'pipeline --framework hf --logits 1,2,3 --context 1,x --repetition-penalty 1.2'),
    ('samplab replay: --context: entry 1 (9) is not a token id in 0..2', 'replay --framework hf --logits @/ok.steps --context 0,9 --repetition-penalty 1.2'),
    ('samplab draw: --context: entry 0 (3) is not a token id in 0..2', 'draw --framework hf --logits 1,2,3 --context 3 --repetition-penalty 1.2'),
    ("samplab: --probs: entry 1: 'x' is not a number", 'draw --framework torch --probs 1,x'),
    ("samplab: --probs: entry 1: 'x' is not a number", 'gof --probs 1,x --method cdf --n 5'),
    ("samplab: --logits: entry 1: 'x' is not a number", 'gof --logits 1,x --method cdf --n 5'),
    ("samplab: --logits: entry 1: 'x' is not a number", 'compare --logits 1,x'),
    ("samplab: --logits: entry 1: 'x' is not a number", 'check --framework hf --logits 1,x --tokens 0'),
    ("samplab: --logits: entry 2: 'x' is not a number", 'replay --framework hf --logits 1,2,x'),
    ("samplab: --probs: entry 1: 'x' is not a number", 'replay --framework torch --probs 1,x'),
    ("samplab: --probs: entry 1: 'x' is not a number", 'power --probs 1,x --n 100'),
    ("samplab: --probs: entry 1: 'x' is not a number", 'exact --method cdf --probs 1,x'),
    ("samplab: --logits: entry 1: 'x' is not a number", 'bench --logits 1,x'),
    ("samplab: --logits: entry 1: 'x' is not a number", 'report --logits 1,x --no-plot --out @T/rep'),
    # the token count names --tokens and the logits with their T
    ('samplab check: --tokens 0,1,2 holds 3 tokens, but --logits @/ok.steps has T = 2 steps', 'check --framework hf --logits @/ok.steps --tokens 0,1,2'),
    ('samplab check: --tokens 0 holds 1 token, but --logits @/ok.steps has T = 2 steps', 'check --framework hf --logits @/ok.steps --tokens 0'),
    # a penalty without --context is named as given
    ('samplab pipeline: --frequency-penalty needs --context IDS', 'pipeline --framework llamacpp --logits 1,2 --frequency-penalty 0.5'),
    ('samplab pipeline: --presence-penalty needs --context IDS', 'pipeline --framework llamacpp --logits 1,2 --presence-penalty 0.5'),
    ('samplab compare: --frequency-penalty needs --context IDS', 'compare --logits 1,2 --frequency-penalty 0.5'),
    ('samplab draw: --frequency-penalty without --context changes nothing in one draw', 'draw --framework llamacpp --seed 1 --logits 1,2 --frequency-penalty 0.5'),
    ('samplab draw: --presence-penalty without --context changes nothing in one draw', 'draw --framework llamacpp --seed 1 --logits 1,2 --presence-penalty 0.5'),
    # candle's WeightedIndex::new failures in the words of the --rand line (0.10.3 measured: Err(Overflow))
    ('WeightedIndex::new returns Overflow (rand 0.10; 0 words drawn)', 'draw --framework candle --rand 0.10 --probs 3e38,3e38'),
    ('WeightedIndex::new returns Overflow (rand 0.10; 0 words drawn)', 'draw --framework candle --rand 0.10 --probs 1,inf'),
    ('rand panics in Uniform::new "range overflow"', 'draw --framework candle --rand 0.8 --probs 3e38,3e38'),
    ('every weight is zero: WeightedIndex::new returns InsufficientNonZero', 'draw --framework candle --rand 0.10 --probs 0,0'),
    ('every weight is zero: WeightedIndex::new returns AllWeightsZero', 'draw --framework candle --rand 0.8 --probs 0,0'),
    # ollama: two release lines (0.24's Go sampler, 0.32's llama-server chain), named; its seed -1 is random;
    # its NaN-sum error after one word
    ('samplab: framework ollama needs its release line: --ollama 0.32', 'draw --framework ollama --seed 1 --logits 1,2'),
    ('samplab compare: framework ollama needs its release line: --ollama 0.32', 'compare --frameworks hf,ollama --logits 1,2'),
    ('framework ollama --ollama 0.24 needs --seed S', 'replay --framework ollama --ollama 0.24 --logits 1,2'),
    ("2^64 - 1 is -1, Ollama's random seed", 'draw --framework ollama --ollama 0.24 --seed 18446744073709551615 --logits 1,2'),
    ("samplab: --ollama takes 0.24, 0.32, 0.30, not '0.31'", 'draw --framework ollama --ollama 0.31 --seed 1 --logits 1,2'),
    ('"sample: logits sum to NaN, check model output"', 'draw --framework ollama --ollama 0.24 --seed 1 --logits 1,nan'),
    ('samplab pipeline: --typical is not an option of framework ollama', 'pipeline --framework ollama --ollama 0.24 --logits 1,2 --typical 0.5'),
    ('framework ollama --ollama 0.32 needs --seed S', 'replay --framework ollama --ollama 0.32 --logits 1,2'),
    ('--ollama 0.32: --typical 0 is two chains', 'draw --framework ollama --ollama 0.32 --seed 1 --logits 1,2 --typical 0'),
    ("samplab compare: --ollama takes 0.24, 0.32, 0.30, not '0.31'", 'compare --frameworks hf,ollama --ollama 0.31 --logits 1,2'),
]
for want, args in args_bad:
    case('args', want, args)

# ------------------------------------------------------------------ token ids are integers
# the draws file's rule (io/draws.c) for every list of ids: --tokens, --context, their files,
# --context-file rows, --eos-token-id; and decimal numbers only in weight files
NOT_INT = [('1.0', 'token ids are integers'), ('+1', 'token ids are non-negative decimal integers'),
           ('0x0', 'token ids are non-negative decimal integers'), ('1e0', 'token ids are integers'),
           ('0.99999999999999999', 'token ids are integers')]
for k, (t, hint) in enumerate(NOT_INT):
    q = "'%s' is not a token id: " % t
    case('ids', 'samplab: --tokens: entry 1: ' + q + hint, 'check --framework hf --logits @/ok.steps --tokens 0,%s' % t)
    case('ids', 'samplab: --context: entry 0: ' + q + hint,
         'draw --framework hf --logits 1,2,3 --context %s --repetition-penalty 1.2' % t)
    case('ids', 'samplab: --context: entry 1: ' + q + hint,
         'replay --framework hf --logits @/ok.steps --context 0,%s --repetition-penalty 1.2' % t)
    case('ids', 'samplab: --context: entry 1: ' + q + hint,
         'pipeline --framework hf --logits 1,2,3 --context 2,%s --repetition-penalty 1.2' % t)
    f = put('ids_tokens%d.txt' % k, '0\n%s\n' % t)
    case('ids', 'ids_tokens%d.txt: line 2, entry 1: ' % k + q + hint,
         'check --framework hf --logits @/ok.steps --tokens %s' % f)
    f = put('ids_context%d.txt' % k, '1 %s\n' % t)
    case('ids', 'ids_context%d.txt: line 1, entry 1: ' % k + q + hint,
         'draw --framework hf --logits 1,2,3 --context %s --repetition-penalty 1.2' % f)
    f = put('ids_rows%d.txt' % k, '0 1\n1 %s\n' % t)
    case('ids', 'ids_rows%d.txt line 2: entry 1: ' % k + q + hint,
         'draw --framework hf --logits %s --context-file %s --repetition-penalty 1.2' % (twod, f))
    case('ids', "--eos-token-id takes a non-negative decimal integer, not '%s'" % t,
         'draw --framework hf --logits 1,2,3 --eos-token-id %s' % t)
# hexadecimal floats: refused by name in every text reader of numbers (docs/architecture.md)
HEX = 'is not a number: a hexadecimal float; samplab reads decimal numbers only'
f = put('hex_float.txt', '0.5 0x1p-2 0.25\n')
case('ids', "hex_float.txt: line 1, entry 1: '0x1p-2' " + HEX, 'draw --probs %s --method cdf' % f)
f = put('hex_float.steps', '1 2 3\n1 0x1.8p1 3\n')
case('ids', "hex_float.steps: line 2, entry 1: '0x1.8p1' " + HEX, 'replay --framework hf --logits %s' % f)
case('ids', "--probs: entry 1: '0X1P0' " + HEX, 'gof --probs 1,0X1P0 --method cdf --n 5')
case('ids', "--logits: entry 0: '-0x1p3' " + HEX, 'pipeline --framework hf --logits -0x1p3,1')
# a lone hexadecimal float where a file or a list is expected: the number is named, not "cannot open"
case('ids', "--probs: entry 0: '0x1p-2' " + HEX, 'draw --probs 0x1p-2 --method cdf')
case('ids', "--logits: entry 0: '-0X1.8P1' " + HEX, 'pipeline --framework hf --logits -0X1.8P1')

# row breaks other than \n and \r\n: refused by name, never one long row
for name, data, what, col in [('cr_only', '1 2 3\r3 2 1\r', 'carriage return without a line feed (\\x0d)', 6),
                              ('form_feed', '1 2 3\f3 2 1\n', 'form feed (\\x0c)', 6),
                              ('vtab', '1 2 3\v3 2 1\n', 'vertical tab (\\x0b)', 6)]:
    f = put(name + '.steps', data)
    case('ids', '%s.steps: line 1, column %d: a %s inside a row' % (name, col, what),
         'replay --framework hf --logits %s' % f)
    case('ids', '%s.steps: line 1, column %d: a %s inside a row' % (name, col, what),
         'check --framework hf --logits %s --tokens 0,1' % f)
    f = put(name + '_rows.txt', data.replace('3 2 1', '1 0').replace('1 2 3', '0 1'))
    case('ids', '%s_rows.txt: line 1, column 4: a %s inside a row' % (name, what),
         'draw --framework hf --logits %s --context-file %s --repetition-penalty 1.2' % (twod, f))

# ------------------------------------------------------------------ the environment
# env.tsv: GROUP<TAB>STATUS<TAB>STDOUT<TAB>ENV<TAB>WANT<TAB>ARGS; STDOUT is file (kept,
# must be empty), full (/dev/full), closed (>&-) or epipe (a pipe whose reader has gone,
# SIGPIPE ignored); ENV is - or shell assignments; WANT - means stderr must be empty.
env_cases = []


def env_case(status, out, env, want, args):
    assert '\t' not in want + args + env and '\n' not in args + env, args
    env_cases.append(('env', str(status), out, env, want, args))


NT = 'each entry is a thread count from 1 to 256'
for v, why in [('100000', NT), ('0', NT), ('257', NT), ('4,100000', NT), ('-1', NT), ('4x', NT), ('""', NT),
               ('99999999999999999999999', NT),
               ('"$(printf \'4\\n5\')"', 'a control or non-ASCII byte'),
               ('"$(printf \'4\\r\')"', 'a control or non-ASCII byte')]:
    shown = {'""': '', '"$(printf \'4\\n5\')"': '4\\x0a5', '"$(printf \'4\\r\')"': '4\\x0d'}.get(v, v)
    for args in ['check --framework hf --logits @/ok.steps --tokens 0,1',
                 'report --no-plot --only ties --n 100 --out @T/rep', 'rng --rng pcg32 --n 3']:
        env_case(2, 'file', 'OMP_NUM_THREADS=' + v, "samplab: OMP_NUM_THREADS='%s': %s" % (shown, why), args)
for env, want in [('OMP_STACKSIZE=100T', "OMP_STACKSIZE='100T': a stack size such as 512K, 8M or 1G, at most 1G"),
                  ('OMP_STACKSIZE=2G', "OMP_STACKSIZE='2G': a stack size"),
                  ('GOMP_STACKSIZE=0', "GOMP_STACKSIZE='0': a stack size"),
                  ('OMP_THREAD_LIMIT=many', "OMP_THREAD_LIMIT='many': a thread limit is one positive integer"),
                  ('OMP_DYNAMIC=maybe', "OMP_DYNAMIC='maybe': true or false"),
                  ('OMP_DISPLAY_ENV=loud', "OMP_DISPLAY_ENV='loud': true, false or verbose"),
                  ('OMP_PROC_BIND="$(printf \'true\\nfalse\')"', "OMP_PROC_BIND='true\\x0afalse': a control"),
                  ('OMP_SCHEDULE="$(printf \'\\033[2J\')"', "OMP_SCHEDULE='\\x1b[2J': a control"),
                  ('GOMP_CPU_AFFINITY="$(printf \'0\\n1\')"', "GOMP_CPU_AFFINITY='0\\x0a1': a control")]:
    env_case(2, 'file', env, 'samplab: ' + want, 'check --framework hf --logits @/ok.steps --tokens 0,1')
    env_case(2, 'file', env, 'samplab: ' + want, 'draw --probs 1,2 --method cdf')
# valid settings still run
for env in ['OMP_NUM_THREADS=2', 'OMP_NUM_THREADS=" 2 , 1 "', 'OMP_STACKSIZE=8M', 'OMP_DYNAMIC=TRUE']:
    env_case(0, 'file', env, '-', 'check --framework hf --logits @/ok.steps --tokens 0,1')
for j in ['100000', '257', '18446744073709551615']:
    want = ('--jobs must be at most 256, not ' + j) if j != '18446744073709551615' else '--jobs takes at most'
    env_case(2, 'file', '-', want, 'report --jobs %s --no-plot --only ties --n 100 --out @T/rep' % j)
# standard output full, closed, or read by nobody (SIGPIPE ignored): one line, status 2, in
# every command; rng --binary's closed pipe is its normal end (a battery has read enough)
OUT = {'full': 'samplab: error writing standard output: No space left on device',
       'closed': 'samplab: error writing standard output: Bad file descriptor',
       'epipe': 'samplab: error writing standard output: Broken pipe'}
every = ['draw --probs 1,2 --method cdf --n 1000000000000', 'draw --framework hf --logits 1,2 --n 1000000000000',
         'draw --probs 1,2 --method alias --n 5 --json', 'draw --probs 1,2 --method cdf --n 5 --counts',
         'rng --rng pcg32 --n 1000000000000', 'rng --rng mt19937 --n 3',
         'pipeline --framework hf --logits 1,2', 'compare --logits 1,2', 'gof --probs 1,2 --method cdf --n 100',
         'power --probs 1,2 --n 100 --trials 10', 'calibrate --probs 1,2 --method cdf --n 100 --seeds 3',
         'exact --method cdf --probs 1,2', 'replay --framework hf --logits @/ok.steps',
         'check --framework hf --logits @/ok.steps --tokens 0,1', 'bench --framework hf --logits @/ok.steps --n 1',
         'report --no-plot --only ties --n 100 --out @T/rep', 'sweep --help', '--help', '--version', 'draw --help']
for args in every:
    for out, want in OUT.items():
        env_case(2, out, '-', want, args)
for n in ['0', '100000', '3']:
    env_case(0, 'epipe', '-', '-', 'rng --rng pcg32 --binary --n ' + n)
env_case(2, 'full', '-', OUT['full'], 'rng --rng pcg32 --binary --n 100000')
env_case(2, 'closed', '-', OUT['closed'], 'rng --rng pcg64 --binary --n 0')
# sweep writes its results into --out, nothing on stdout: a full or closed stdout changes nothing
sw = put('sweep_ok.json', '{"studies": [{"name": "d", "job": "draw", "inputs": [{"probs": "3,2,2,1"}], '
         '"methods": ["cdf"], "seeds": [3], "options": {"n": 5}}]}')
for k, out in enumerate(['full', 'closed', 'epipe']):
    env_case(0, out, '-', '-', 'sweep --spec %s --out @T/sweep%d' % (sw, k))

# python.tsv: GROUP<TAB>EXCEPTION<TAB>WANT<TAB>EXPR. The Python package (python/samplab) given
# what a careless or hostile caller passes: EXPR (samplab and math imported) must raise
# EXCEPTION (samplab.Error, a ValueError, or TypeError) whose one-line text contains WANT;
# python/tests/test_hostile_python.py runs them under make test. A C caller's hostile
# arguments are tests/test_capi_hostile.c, generated from the headers (mk/gen-capi-hostile.py).
py_cases = []


def py_case(group, exc, want, expr):
    assert '\t' not in want + expr and '\n' not in want + expr
    py_cases.append((group, exc, want, expr))


L3 = "logits=[1.0, 2.0, 3.0], seed=1"
for key, val, want in [('top_p', "float('nan')", "top_p takes a number, not 'nan'"),
                       ('min_p', "float('nan')", "min_p takes a number, not 'nan'"),
                       ('temperature', "float('inf')", "temperature takes a finite number, not 'inf'"),
                       ('temperature', "float('-inf')", "temperature takes a finite number, not '-inf'"),
                       ('repetition_penalty', "float('nan')", "repetition_penalty takes a number, not 'nan'"),
                       ('top_k', '-5', '`top_k` has to be a strictly positive integer, but is -5'),
                       ('n', '-1', "n takes a non-negative integer, not '-1'"),
                       ('n', 'True', "n takes a non-negative integer, not 'True'"),
                       ('seed', '-1', "seed '-1': character 1 ('-') is not a decimal digit"),
                       ('seed', "'1\\x00'", "holds a NUL character, which would end the text early"),
                       ('framework', "'h\\x00f'", "holds a NUL character, which would end the text early")]:
    args = L3 if key not in ('framework', 'seed') else "logits=[1.0, 2.0, 3.0]"
    fw = "" if key == 'framework' else "framework='hf', "
    py_case('settings', 'Error', want, "samplab.draw(%s%s, %s=%s)" % (fw, args, key, val))
py_case('settings', 'Error', "unknown framework 'nope'", "samplab.draw(framework='nope', %s)" % L3)
py_case('settings', 'Error', 'min_p is not an option of method cdf',
        "samplab.draw(method='cdf', probs=[1, 2], min_p=0.1)")
py_case('settings', 'TypeError', "unexpected keyword argument 'top_kk'",
        "samplab.draw(framework='hf', %s, top_kk=3)" % L3)
py_case('settings', 'TypeError', 'positional', "samplab.draw('cdf', [1, 2])")
py_case('settings', 'Error', "alpha takes a number, not 'nan'",
        "samplab.gof(probs=[0.5, 0.5], counts=[1, 1], alpha=float('nan'))")
py_case('settings', 'Error', 'alpha must be in (0,1), not 2', "samplab.gof(probs=[0.5, 0.5], counts=[1, 1], alpha=2)")
for probs, want in [('[]', 'an empty name is neither a file nor an inline list'),
                    ("[float('nan'), 1.0]", 'entry 0 is NaN'), ('[-1.0, 2.0]', 'entry 0 is negative (-1)'),
                    ('[0.0, 0.0]', 'all 2 weights are zero'), ("[[1, 2], [3]]", "'2;3' is not a number"),
                    ("'0x1p-2'", "'0x1p-2' is not a number: a hexadecimal float"),
                    ("['1,2', '3']", 'given 2 times: one vector is read here'),
                    ("['1', '2,3']", 'given 2 times: one vector is read here'),
                    ("[1, '2,3']", "entry '2,3' holds a comma, semicolon, newline or NUL"),
                    ("[1, '2\\n3']", 'holds a comma, semicolon, newline or NUL'),
                    ("[1, None]", 'an entry is a NoneType, not a number'),
                    ("'/nonexistent/x.npy'", '/nonexistent/x.npy: cannot open: No such file or directory'),
                    ("'/dev/null'", '/dev/null: a device, not a file'), ("'/'", '/: a directory, not a file'),
                    ("b'\\x93NUMPY'", 'npy')]:
    py_case('vectors', 'Error', want, "samplab.draw(method='cdf', probs=%s)" % probs)
py_case('vectors', 'TypeError', "'object' object is not iterable", "samplab.draw(method='cdf', probs=object())")
py_case('vectors', 'Error', 'entry 0 is +infinity', "samplab.pipeline(framework='hf', logits=[float('inf'), 1.0])")
G = "samplab.gof(probs=[0.5, 0.5], "
for arg, want in [('draws=[0, 2]', 'token 2 is not in 0..1'), ('draws=[0, 1.5]', "'1.5' is not a token id"),
                  ('draws=[0, -1]', 'token -1 is not in 0..1'), ('counts=[1, -1]', 'counts must be non-negative'),
                  ('counts=[1, 2, 3]', '3 counts for V = 2 tokens'),
                  ('counts=[1, 1], draws=[0, 1]', 'give exactly one of')]:
    py_case('ids', 'Error', want, G + arg + ')')
R = "logits=[[1.0, 2.0], [2.0, 1.0]], seed=1"
py_case('ids', 'Error', 'context: entry 0 (5) is not a token id in 0..1',
        "samplab.replay(framework='hf', %s, context=[5])" % R)
py_case('ids', 'Error', 'tokens: entry 1 (7) is not a token id in 0..1',
        "samplab.check(framework='hf', %s, tokens=[0, 7])" % R)
py_case('ids', 'Error', "entry '0,1' holds a comma", "samplab.check(framework='hf', %s, tokens=['0,1'])" % R)


def main():
    if os.path.isdir(FILES):
        shutil.rmtree(FILES)
    os.makedirs(FILES)
    for name, data in files.items():
        with open(os.path.join(FILES, name), 'wb') as f:
            f.write(data)
    with open(os.path.join(HERE, 'cases.tsv'), 'w') as f:
        f.write('# written by tests/hostile/make_cases.py: GROUP<TAB>WANT<TAB>ARGS (see there)\n')
        for c in cases:
            f.write('\t'.join(c) + '\n')
    with open(os.path.join(HERE, 'env.tsv'), 'w') as f:
        f.write('# written by tests/hostile/make_cases.py: GROUP<TAB>STATUS<TAB>STDOUT<TAB>ENV<TAB>WANT<TAB>ARGS\n')
        for c in env_cases:
            f.write('\t'.join(c) + '\n')
    with open(os.path.join(HERE, 'python.tsv'), 'w') as f:
        f.write('# written by tests/hostile/make_cases.py: GROUP<TAB>EXCEPTION<TAB>WANT<TAB>EXPR\n')
        for c in py_cases:
            f.write('\t'.join(c) + '\n')
    print('%d files, %d cases, %d environment cases, %d Python cases'
          % (len(files), len(cases), len(env_cases), len(py_cases)))


if __name__ == '__main__':
    main()
