#!/usr/bin/python3
"""npy_headers.py — NumPy's own verdict on .npy headers, for samplab's header
parser (src/io/npy.c): hand-written headers (every literal form the parser
handles: quotes, prefixes, escapes, concatenation, integers in every base,
signs, tuples, comments, padding, NUL, non-UTF-8 3.0 headers) in versions 1.0,
2.0 and 3.0, and 2,500 random mutations of four valid headers. Each header
goes through numpy.lib.format's own _read_array_header (the function np.load
calls), which gives the shape, dtype and order or raises.

Output, one line per header: MAJOR HEX OK DTYPE SHAPE FORTRAN, or MAJOR HEX
ERR EXCEPTION, HEX the header bytes ('-' when empty), SHAPE comma-separated
('-' for ()). Usage: npy_headers.py OUT.txt
"""
import io
import random
import struct
import sys
import warnings

import numpy as np
try:
    from numpy.lib import _format_impl as F   # NumPy 2.x
except ImportError:
    from numpy.lib import format as F         # NumPy 1.x

warnings.simplefilter('ignore')
base = ["{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
        '{"descr": "<f8", "fortran_order": True, "shape": (1, 5)}']
hand = [
 "{'descr':'<f4','fortran_order':False,'shape':(4,)}",
 "{'shape': (4,), 'fortran_order': False, 'descr': '<f4'}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'descr': '<f8'}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': 1}",
 "{'descr': '<f4', 'fortran_order': False}",
 "{'descr': r'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': u'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': b'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{b'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '''<f4''', 'fortran_order': False, 'shape': (4,)}",
 '{"descr": """<f4""", "fortran_order": False, "shape": (4,)}',
 "{'de' 'scr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'de' \"scr\": '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'\\x64escr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'\\u0064escr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'\\U00000064escr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'\\144escr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'d\\\nescr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\n",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}   \n",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\n\n\n",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\x00",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\t",
 "{'descr': '<f4',\n 'fortran_order': False,\n 'shape': (4,)}",
 "{'descr': '<f4', # the dtype\n 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)} # end",
 "# start\n{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "\n\n{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 " \n {'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "\n {'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "\\\n{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\\\n",
 "{'descr': '<f4', \\\n'fortran_order': False, 'shape': (4,)}",
 "(({'descr': '<f4', 'fortran_order': False, 'shape': (4,)}))",
 "({'descr': '<f4', 'fortran_order': False, 'shape': (4,)},)",
 "{'descr': ('<f4'), 'fortran_order': (False), 'shape': ((4,))}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,5,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4 ,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': ( 4 , )}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4 5)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': ((4,),)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0x4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0X4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0o4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0b100,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0x_4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0_4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (04,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (00,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0_0,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (1__0,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (10_,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (_10,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4L,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4l,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4.0,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4e0,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4j,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (-4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (-0,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (+4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (- 4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (--4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (True,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (None,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': ('4',)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': 4}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': [4]}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,4)}",
 "{'descr': '<f4', 'fortran_order': 0, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': None, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': True, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2)}",
 "{'descr': '<f4', 'fortran_order': true, 'shape': (4,)}",
 "{'descr': '>f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<i4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f2', 'fortran_order': False, 'shape': (8,)}",
 "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,)}",
 "{'descr': ('<f4', (2,)), 'fortran_order': False, 'shape': (2,)}",
 "{'descr': 'float32', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': 'single', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': 'double', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': 'float', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': 'd', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': 'f', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '|f', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '=d', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': '|d', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': '<d', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': 'f8', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': 'float64', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': '<f4 ', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': ' <f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<F4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': 'Float32', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': 'float_', 'fortran_order': False, 'shape': (2,)}",
 "{'descr': 'f4\\x00', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'shape': (4,)}",
 "{'descr': '<f4' 'fortran_order': False, 'shape': (4,)}",
 "{'descr' '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,),,}",
 "{,'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)",
 "'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)} {}",
 "{'descr': '<f4\", 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4\n', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '''<f4\n''', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<\\f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<\\q4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': r'<\\f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'descr': '<f4'}",
 "{'descr': f'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': rb'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': ur'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': R'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': U'<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\x0b",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\x0c",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\r",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\r\n",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\xa0",
 "{'descr': '<f4', 'fortran_order':\xa0False, 'shape': (4,)}",
 "{'descr': '<f4\xe9', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '\\N{LESS-THAN SIGN}f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)};",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\n\t",
 "",
 " ",
 "{}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'descr': '<f4'",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)\n}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4\n,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\x1b[31m",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\x7f",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}\xef\xbb\xbf",
 "\xef\xbb\xbf{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }" + "\n",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (1,4), }",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (4,1), }",
 "{'descr': '<f4', 'fortran_order': True, 'shape': (1,4,1), }",
 "{'descr': '<f4', 'fortran_order': True, 'shape': (), }",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }",
 "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4), }",
]
# mutations of the base headers
alphabet = ["'", '"', ',', '(', ')', '{', '}', ':', ' ', '\n', '\\', '#', '0', '4', '-', '+', '_', 'L', 'x', 'e', '.', 'j',
            'u', 'r', 'b', 'True', 'False', 'None', '<f4', "'descr'", "'shape'", '\x00', '\t', '\x0b', '\xff', '[', ']', '\\x', '\\u0']


def main():
    rng = random.Random(20240615)
    cases = [(h, maj) for h in hand for maj in (1, 2, 3)]
    for _ in range(2500):
        h = list(rng.choice(base))
        for _ in range(rng.randint(1, 3)):
            op = rng.randint(0, 2)
            i = rng.randrange(len(h) + 1)
            if op == 0 and h:
                del h[min(i, len(h) - 1)]
            elif op == 1:
                h.insert(i, rng.choice(alphabet))
            elif h:
                h[min(i, len(h) - 1)] = rng.choice(alphabet)
        cases.append((''.join(h), rng.choice((1, 2, 3))))
    with open(sys.argv[1], 'w') as out:
        out.write('# numpy %s: numpy.lib.format._read_array_header on %d headers; written by '
                  'analysis/golden/current/npy_headers.py\n' % (np.__version__, len(cases)))
        for h, maj in cases:
            if maj == 3:  # a 3.0 header is UTF-8; a stray \xff makes it invalid
                hb = h.replace('\xff', '').encode('utf-8') + (b'\xff' if '\xff' in h else b'')
            else:
                hb = h.encode('latin1')
            ln = struct.pack('<H', len(hb)) if maj == 1 else struct.pack('<I', len(hb))
            fp = io.BytesIO(b'\x93NUMPY' + bytes([maj, 0]) + ln + hb)
            try:
                F.read_magic(fp)
                shape, fo, dt = F._read_array_header(fp, (maj, 0))
                verdict = 'OK %s %s %d' % (dt.str, ','.join(map(str, shape)) or '-', int(fo))
            except Exception as e:  # what np.load would raise
                verdict = 'ERR %s' % type(e).__name__
            out.write('%d %s %s\n' % (maj, hb.hex() or '-', verdict))


if __name__ == '__main__':
    main()
