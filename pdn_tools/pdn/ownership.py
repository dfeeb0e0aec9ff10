"""The games the reader makes: freed with their tree the moment they are dropped.

A tree links both ways (``node.variations`` down, ``node.parent`` up), which in
Python makes reference cycles: a dropped game would wait for the cyclic garbage
collector, whose passes over the many young objects of reading and replaying cost
more than a third of the time of a read-and-replay loop.  :class:`ReadGame` — the
class of every game :mod:`pdn_tools.pdn.build` makes — breaks that:

* the nodes that follow the game itself link to it weakly (``Node.parent`` still
  returns it), so the game is in no cycle and is finalised the moment the last
  reference to it goes;
* finalised, it unlinks its tree (:meth:`~pdn_tools.pdn.model.Game.close`), and every
  node is freed by reference counting — unless a node is still referenced from
  outside the tree (a caller kept ``game.end()``, say): the game then keeps itself
  alive through that node's line (plain links again) and is freed by the collector
  when the node goes, as any Python object graph, so a kept node's ``parent``,
  ``game()`` and ``board()`` go on working.

This module is not compiled in either build (it is not in ``COMPILED``): the
reference counts it compares are those of the interpreter, the same in both builds,
and a compiled class cannot be weakly referenced, while this subclass of the
compiled ``Game`` can.
"""

from __future__ import annotations

import sys
from operator import gt

from pdn_tools.pdn.model import Game, Node, tree_references


class ReadGame(Game):
    """A :class:`~pdn_tools.pdn.model.Game` that frees its tree when dropped."""

    __slots__ = ("__weakref__",)

    def frees_tree(self) -> bool:
        return True

    def __del__(self) -> None:
        first = self.variations
        if not first or first[0].parent is not self:
            return  # no moves, or closed already
        if _held_from_outside(self):
            for node in first:
                node.hold_parent()  # the collector's, as any cycle
            return
        self.close()


def _held_from_outside(game: Game) -> bool:
    """Whether a node of *game* is referenced from anything but its tree (its place
    in its parent's ``variations``, its children's parent links) and the game's
    replay state."""
    nodes, expected = tree_references(game, _state_references(game), _LISTED)
    return any(map(gt, map(sys.getrefcount, nodes), expected))


def _listed() -> int:
    """The reference count ``map(sys.getrefcount, nodes)`` sees of a node that only
    the list *nodes* holds (the interpreter's own temporaries included)."""
    nodes = [Node("root")]
    return next(map(sys.getrefcount, nodes))


_LISTED = _listed()


def _state_references(game: Game) -> list[Node]:
    """The references to nodes the game's replay state holds, once per reference:
    what its ``held_nodes()`` lists (:class:`pdn_tools.replay.validate.GameReplay`)."""
    held = getattr(game.replay_state, "held_nodes", None)
    return held() if held is not None else []
