"""Layout conversions by warp shuffles: the plan read off two layout maps, checked by running
it lane by lane in Python (what `convert_by_shuffles` emits) on blocked layouts."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from tilecraft.backends.cuda.shuffles import ShufflePlan, shuffle_plan
from tilecraft.layouts.distributed import blocked_layout
from tilecraft.layouts.linear import LinearLayout


def run_plan(src: LinearLayout, dst: LinearLayout, plan: ShufflePlan) -> None:
    """Every destination register of every thread receives the element its coordinates name."""
    owner = plan.owner
    names = owner.out_dim_names
    reg, lane = names.index("register"), names.index("lane")
    for warp in range(dst.in_dim_size("warp")):
        for this_lane in range(dst.in_dim_size("lane")):
            for register, candidates in enumerate(plan.candidates):
                from_lane = owner.apply(register=register)[lane] ^ \
                    owner.apply(lane=this_lane)[lane]
                wanted = owner.apply(register=register)[reg] ^ owner.apply(lane=this_lane)[reg]
                assert wanted in candidates
                got = src.apply(register=wanted, lane=from_lane, warp=warp)
                assert got == dst.apply(register=register, lane=this_lane, warp=warp)


def test_transposing_lanes_within_a_warp():
    """[32 x 8] with lanes along dim 1 then dim 0, against lanes along dim 0 then dim 1; one
    warp: every element stays in the warp."""
    shape = (32, 8)
    src = blocked_layout(shape, (1, 4), (16, 2), (1, 1), (1, 0))
    dst = blocked_layout(shape, (4, 1), (4, 8), (1, 1), (0, 1))
    plan = shuffle_plan(src, dst)
    assert plan is not None
    run_plan(src, dst, plan)


def test_conversions_across_warps_are_not_shuffles():
    shape = (1024,)
    src = blocked_layout(shape, (4,), (32,), (4,), (0,))
    dst = blocked_layout(shape, (1,), (32,), (4,), (0,))
    assert shuffle_plan(src, dst) is None


powers = st.sampled_from([1, 2, 4])


@st.composite
def blocked_pair(draw):
    """Two blocked layouts of one 2-D shape over one warp of 32 lanes."""
    shape = (draw(st.sampled_from([8, 16, 32])), draw(st.sampled_from([8, 16, 32])))

    def one():
        lanes0 = draw(st.sampled_from([1, 2, 4, 8, 16, 32]))
        return blocked_layout(shape, (draw(powers), draw(powers)), (lanes0, 32 // lanes0),
                              (1, 1), draw(st.sampled_from([(0, 1), (1, 0)])))

    return one(), one()


@settings(max_examples=60, deadline=None)
@given(blocked_pair())
def test_plans_move_every_element_to_its_register(pair):
    src, dst = pair
    plan = shuffle_plan(src, dst)
    if plan is not None:
        run_plan(src, dst, plan)


def test_some_random_pairs_take_the_shuffle_path():
    shape = (16, 16)
    found = 0
    for per0, per1, lanes0 in itertools.product([1, 2, 4], [1, 2, 4], [1, 2, 4, 8, 16]):
        src = blocked_layout(shape, (per0, per1), (lanes0, 32 // lanes0), (1, 1), (1, 0))
        dst = blocked_layout(shape, (1, 1), (32 // lanes0, lanes0), (1, 1), (0, 1))
        plan = shuffle_plan(src, dst)
        if plan is not None:
            run_plan(src, dst, plan)
            found += 1
    assert found > 0
