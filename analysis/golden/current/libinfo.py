#!/usr/bin/python3
"""libinfo.py — the header lines every file of data/golden/current carries:
library versions (torch, transformers, numpy), the build (MKL or not) and the
CPU kernel torch dispatches to (torch.backends.cpu.get_cpu_capability(), and
the ATEN_CPU_CAPABILITY it was asked for, 'unset' = torch's own choice).

Usage:
  libinfo.py                  print the lines ('# ' prefixed)
  libinfo.py --insert FILE    insert them after FILE's first line (for files
                              written by the unmodified scripts of analysis/golden)
As a module: lines() returns them.
"""
import os
import sys


def lines():
    import numpy
    import torch
    try:
        import transformers
        tv = transformers.__version__
    except ImportError:
        tv = 'not installed'
    return [
        '# libraries: torch %s, transformers %s, numpy %s' % (torch.__version__, tv, numpy.__version__),
        '# build: torch.backends.mkl.is_available() = %s' % torch.backends.mkl.is_available(),
        '# cpu kernel: torch.backends.cpu.get_cpu_capability() = %s; ATEN_CPU_CAPABILITY = %s'
        % (torch.backends.cpu.get_cpu_capability(), os.environ.get('ATEN_CPU_CAPABILITY', 'unset')),
    ]


def main():
    if len(sys.argv) == 1:
        print('\n'.join(lines()))
    elif len(sys.argv) == 3 and sys.argv[1] == '--insert':
        with open(sys.argv[2]) as f:
            text = f.read()
        first, _, rest = text.partition('\n')
        with open(sys.argv[2], 'w') as f:
            f.write(first + '\n' + ''.join(s + '\n' for s in lines()) + rest)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
