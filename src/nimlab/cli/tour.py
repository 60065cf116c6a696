"""Command ``tour``: a short guided tour of what nimlab computes, from Nim to hidden heaps."""

from __future__ import annotations

from rich.panel import Panel

from nimlab.cli.app import app, console
from nimlab.cli.nim import render_nim_sum
from nimlab.core import MoveFunctionGame, disjunctive_sum, misere
from nimlab.exact import exact_str
from nimlab.grundy import grundy_value, outcome
from nimlab.nim import aesthetic_positions, analyze_nim, lost_positions
from nimlab.nimbers import nim_inverse, nim_product, nim_sqrt, nim_table

__all__ = ["tour"]


def _step(title: str, command: str) -> None:
    console.print()
    console.print(Panel.fit(f"[bold]{title}[/bold]\n[dim]try:[/dim] [cyan]{command}[/cyan]"))


@app.command("tour")
def tour() -> None:
    """A guided tour of nimlab in a few computed examples."""
    from nimlab.catalogue import grundy_table, make_game
    from nimlab.hidden import solve as solve_variant  # heavy: imported only for the tour
    from nimlab.scoring import payoff_function

    console.print("[bold]nimlab[/bold]: Nim and its variants, computed exactly.")

    _step("1. Nim: who wins 3,4,5 and how?", "nimlab nim 3 4 5")
    result = analyze_nim([3, 4, 5])
    console.print(render_nim_sum(result.position, {m.heap for m in result.winning_moves}))
    move = result.winning_moves[0]
    console.print(f"nim-sum {result.nim_sum} ≠ 0, so the player to move wins by {move}.")
    misere_result = analyze_nim([1, 1, 1], misere=True)
    console.print(
        f"Misère Nim 1,1,1: {misere_result.outcome.value} (an odd number of single "
        "counters loses for the player to move)."
    )

    _step("2. Nimbers form a field", "nimlab nimber table --op product --size 8")
    console.print("nim-product table of 0..3:", nim_table("product", 4))
    x = 2**64 + 12345
    console.print(
        f"{x} ⊗ its inverse = {nim_product(x, nim_inverse(x))}; "
        f"nim square root of 2 = {nim_sqrt(2)} (3 ⊗ 3 = {nim_product(3, 3)})."
    )

    _step("3. Any impartial game by its moves: Sprague-Grundy", "see docs/games.md")
    take_134 = MoveFunctionGame(lambda n: [n - s for s in (1, 3, 4) if s <= n], name="S(1,3,4)")
    values = [grundy_value(take_134, n) for n in range(15)]
    console.print(f"subtraction game S(1,3,4): g(0..14) = {values}")
    pair = disjunctive_sum(take_134, take_134)
    console.print(
        f"sum of heaps 5 and 9: Grundy {grundy_value(pair, (5, 9))} = "
        f"{values[5]} ⊕ {values[9]}; misère outcome {outcome(misere(pair), (5, 9))}."
    )

    _step("4. Lost positions, obvious and not", "nimlab lost --heaps 3 --max 7 --non-obvious")
    positions = lost_positions(3, 7, non_obvious=True)
    console.print(f"{len(positions)} non-obviously lost 3-heap positions up to 7: {positions}")

    _step("5. Aesthetic starting positions", "nimlab aesthetic --heaps 9")
    best = aesthetic_positions(9)
    console.print(f"9 distinct heaps, nim-sum 0, {best.total} counters: {list(best.positions)}")

    _step("6. The catalogue: Nim's relatives", "nimlab analyze silver-dollar 2,5,7,11")
    kayles = grundy_table(make_game("kayles"), 200)
    console.print(
        f"Kayles: period {kayles.period}, preperiod {kayles.preperiod} (proven by the "
        "octal periodicity theorem); try [cyan]nimlab games[/cyan]."
    )

    _step("7. Scoring Nim: the payoff as an exact function of the bonus N", "nimlab scoring 5 4 2")
    payoff = payoff_function((5, 4, 2))
    kinks = ", ".join(f"{exact_str(n)}" for n in payoff.knots)
    console.print(f"f_N(5,4,2) is piecewise linear with kinks at N = {kinks}.")

    _step("8. Imperfect information: Schrödinger Nim", "nimlab solve sn 3 3 1 --strategy")
    value = solve_variant("sn", (3, 3, 1))
    certified = "certified exact" if value.exact else "not certified"
    console.print(f"SN(3,3,1) = {exact_str(value.value)} for the first player ({certified}).")

    _step("9. Play against the solver", "nimlab serve   (or: nimlab play nim 3,4,5)")
    console.print("\nMore: [cyan]nimlab --help[/cyan]")
