# The modified firmwares the end-to-end attack tests boot (firmware/hostmodes/cheat.py) differ
# from the real one only where they attack: a patched runner still tells the app when something
# changed, or the screen of the unit that attacked would never show its own verdict (it stayed
# on "audit: waiting" with the verdict in; tests/e2e/test_peer_attacks_e2e.py ends on it).
from fathom.games.seat import Seat
from fathom.runner import Runner
from hostmodes import cheat
from toy.engine import ENGINE as TOY


def test_the_attack_mode_passes_on_what_the_runner_says_changed():
    class Attacker(Runner):
        pass
    cheat.install_attack(Attacker, 6)
    seats = [Seat(TOY, TOY.options(), 2, b"cheat", 0, b"salt0") for _ in range(2)]
    honest, patched = Runner(seats[0], []), Attacker(seats[1], [])
    assert [patched.tick(k) for k in range(3)] == [honest.tick(k) for k in range(3)] == \
        [True, False, False]
