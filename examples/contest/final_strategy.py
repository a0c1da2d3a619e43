"""An example entry for the Hog contest (the contest rule set: Sow Sad, Piggy Points, More Boar,
Time Trot): a few of the course's ideas in a dozen lines. Turn it into a table and enter it:

    python -m bot contest table examples/contest/final_strategy.py -o final_strategy.csv
    python -m bot contest submit examples/contest/final_strategy.py --name "My team"
"""

GOAL = 100


def piggy_points(opponent_score):
    """Rolling zero dice scores 3 plus the smallest digit of the opponent's score squared."""
    return 3 + min(int(digit) for digit in str(opponent_score**2))


def more_boar(score, opponent_score):
    """Whether a total of ``score`` earns another turn: both leading digits below the opponent's."""
    mine, theirs = f"{score:02d}", f"{opponent_score:02d}"
    return mine[0] < theirs[0] and mine[1] < theirs[1]


def final_strategy(score, opponent_score):
    bacon = piggy_points(opponent_score)
    if score + bacon >= GOAL:  # rolling none wins outright
        return 0
    if more_boar(score + bacon, opponent_score) or bacon >= 9:  # a sure extra turn, or plenty of points
        return 0
    if opponent_score - score > 30:  # far behind: take risks
        return 7
    return 5 if GOAL - score > 20 else 4
