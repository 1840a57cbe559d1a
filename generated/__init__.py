"""Python classes generated from the `.td` files in defs/ by tools/gen; never edited by hand.

Each dialect is a module (`tilecraft.generated.<dialect>`), loaded on first use by
`tilecraft.ir.registry`; `passes` holds the pass base classes.
"""

DIALECTS = ('arith', 'builtin', 'cf', 'func', 'llvm', 'math', 'scf', 'tt', 'ttg', 'ttng', 'ub', )
