#!/usr/bin/env python3
"""Counts the multiply-adds (FFMA) of a SASS listing (cuobjdump -sass) that read two
source registers from one register bank.

NVIDIA does not publish the register file's layout; this uses the common model of four
banks, bank = register number mod 4, and takes an operand marked .reuse on the previous
instruction, in the same operand slot, as read from the reuse cache instead of a bank.
It is a model for comparing listings, not a measurement.

    python3 sass-banks.py LISTING.sass ...
"""
import re
import sys

INSTRUCTION = re.compile(r'/\*([0-9a-f]{4})\*/\s+(.*?);')
REGISTER = re.compile(r'(-?R\d+|RZ)(\.reuse)?')


def count(path):
    ffma = conflicts = 0
    cached = {}  # operand slot -> register kept in the reuse cache for this instruction
    for line in open(path):
        m = INSTRUCTION.search(line)
        if not m:
            continue
        text = m.group(2)
        if text.startswith('@'):  # a predicate guard
            text = text.split(None, 1)[1]
        operands = REGISTER.findall(text)
        sources = operands[1:]
        if text.split()[0].startswith('FFMA') and len(operands) == 4:
            read = [int(r.lstrip('-R')) for slot, (r, _) in enumerate(sources)
                    if r != 'RZ' and cached.get(slot) != int(r.lstrip('-R'))]
            banks = [r % 4 for r in read]
            ffma += 1
            conflicts += len(banks) != len(set(banks))
        cached = {slot: int(r.lstrip('-R')) for slot, (r, reuse) in enumerate(sources)
                  if reuse and r != 'RZ'}
    return ffma, conflicts


for path in sys.argv[1:]:
    n, c = count(path)
    print(f"{path}: {n} FFMA, {c} read two operands from one bank ({100 * c / max(n, 1):.0f}%)")
