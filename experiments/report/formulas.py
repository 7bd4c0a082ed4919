"""The papers' cost models and counts, as the reports compare with them.

Each function cites its source (the seeds: ../shared/seeds/README.md):
  seed 000: divide-and-conquer complete exchange on a 2D torus, Table 1
            (A(n-1) and A1; the direct exchange's counts are this
            project's baseline, not the table's);
  seed 002: McKinley, Tsai and Robinson's survey, Table 2 and section 8;
  seed 003: Thakur, Choudhary and Fox: the exchange-step time and
            beta = 2^gamma beta_sat, gamma = 1 for the Delta (section 2);
            f(i) of PEX and GEN (sections 3.1 and 3.4);
  seed 004: the slides on controlled flooding (Corollaries 1-2, Theorem 4)
            and on all-to-all exchange in banyan networks.
Times are in the unit of their arguments (ns throughout the reports).
Costs come from the preset the sweep ran with (preset.Costs), never from
constants here.
"""

import math


# --- seed 003: Thakur, Choudhary and Fox, sections 2 and 3 ---------------

def pow2_floor(x):
    """The largest power of two at most x (1 for x < 2).

    The paper prints f(i) with a ceiling, 2^ceil(lg max(i mod c, i/c)),
    which gives f(c - 1) = c and breaks the bound the same paragraph states
    (no link carries more than max(r, c)/2 messages of a step); the floor
    keeps it, so the model reads the floor."""
    v = 1
    while 2 * v <= x:
        v *= 2
    return v


def pex_step_sharing(i, c):
    """f(i): the most messages of PEX's step i on one link of a mesh of c
    columns (section 3.1, with the floor)."""
    return pow2_floor(max(i % c, i // c))


def pex_contention_sum(p, c):
    """Sum over PEX's steps i = 1..p-1 of max(2, f(i)) (pex_step_sharing):
    the time of a step is L max(beta_ex, f(i) beta_sat), beta_ex = 2 beta_sat."""
    s = 0
    for i in range(1, p):
        s += max(2, pex_step_sharing(i, c))
    return s


def gen_contention_sum(p, c):
    """Sum over GEN's steps of max(2, f(i)), f(i) = min(i mod c, c - i mod
    c) + min(i div c, (p - i) div c) (section 3.4)."""
    s = 0
    for i in range(1, p):
        s += max(2, min(i % c, c - i % c) + min(i // c, (p - i) // c))
    return s


def contention_sum(app, p, c):
    """The step sum of PEX (alltoall_pex) or GEN (any other)."""
    return pex_contention_sum(p, c) if app == "alltoall_pex" else gen_contention_sum(p, c)


def thakur_time(app, p, c, length, alpha, beta_sat):
    """T = sum_i alpha + L max(beta_ex, f(i) beta_sat) on a mesh of p
    processors in c columns (the step time of section 2), beta_ex =
    beta_sr = 2^gamma beta_sat with gamma = 1, the Delta's (section 2):
    (p - 1) alpha + L beta_sat sum_i max(2, f(i)), f(i) of section 3.1
    (PEX) or 3.4 (GEN)."""
    return (p - 1) * alpha + length * beta_sat * contention_sum(app, p, c)


def fit_thakur_model(cells):
    """alpha and beta_sat of thakur_time by least squares of the relative
    error over cells (app, p, c, length, measured time): minimises
    sum (T / measured - 1)^2, a 2x2 linear system; None when the cells do
    not determine them (none, or all alike)."""
    suu = syy = suy = su = sy = 0.0
    for app, p, c, length, measured in cells:
        u = (p - 1) / measured
        y = length * contention_sum(app, p, c) / measured
        suu += u * u
        syy += y * y
        suy += u * y
        su += u
        sy += y
    det = suu * syy - suy * suy
    if det <= 1e-9 * suu * syy:   # singular, to rounding
        return None
    return (su * syy - sy * suy) / det, (sy * suu - su * suy) / det


# --- seed 000: complete exchange on an N x N torus, Table 1 ----------------

def torus_table1(app, n):
    """(start-ups, transmission in m t_d, rearrangement in m t_r) of Table 1
    for an N x N torus. A(n-1): 3 log N - 1; 2N^3 - 2N^2; 4N^2 log N (log N
    - 1) (the extracted text is garbled between the two factors, read as a
    product). A1: N/4 + 5; (N^3 + 10N^2)/4; 10N^2. Any other app, a direct
    exchange (not in Table 1; this project's baseline): N^2 - 1 start-ups
    and blocks, no rearrangement."""
    lg = math.log(n) / math.log(2)
    if app == "alltoall_a1":
        return n / 4 + 5, (n ** 3 + 10 * n ** 2) / 4, 10 * n ** 2
    if app == "alltoall_an1":
        return 3 * lg - 1, 2 * n ** 3 - 2 * n ** 2, 4 * n ** 2 * lg * (lg - 1)
    return n * n - 1, n * n - 1, 0


def a1_time(n, m, t_s, t_d):
    """A1's time on an N x N torus without its rearrangement term (Table
    1): (N/4 + 5) t_s + (N^3 + 10N^2)/4 m t_d."""
    return (n / 4 + 5) * t_s + (n ** 3 + 10 * n ** 2) / 4 * m * t_d


def direct_time(n, m, t_s, t_d):
    """A direct exchange's time, the baseline beside Table 1's algorithms
    (the table has no direct row): (N^2 - 1)(t_s + m t_d)."""
    return (n * n - 1) * (t_s + m * t_d)


def a1_crossover(n, t_s, t_d):
    """The block length m below which a1_time < direct_time: equal at
    m = t_s (N^2 - 1 - N/4 - 5) / (t_d ((N^3 + 10N^2)/4 - N^2 + 1))."""
    return t_s * (n * n - 1 - n / 4 - 5) / ((n ** 3 + 10 * n ** 2) / 4 - n * n + 1) / t_d


# --- seed 002: the survey, Table 2 (2D mesh complete exchange) ------------

def survey_table2(app, nodes):
    """(steps, largest message in blocks, blocks sent per node) of Table 2
    on an N-node 2^j x 2^j mesh: direct exchange N - 1, 1, N - 1; binary
    exchange log N, N/2, N/2 log N; quadrant exchange 3 (sqrt N - 1), N/4,
    3N/4 (sqrt N - 1)."""
    lg = math.log(nodes) / math.log(2)
    side = math.sqrt(nodes)
    if app == "alltoall_direct":
        return nodes - 1, 1, nodes - 1
    if app == "alltoall_binary_exchange":
        return lg, nodes / 2, nodes / 2 * lg
    return 3 * (side - 1), nodes / 4, 3 * nodes / 4 * (side - 1)


# --- seed 002, section 8: multidestination worms --------------------------

def one_worm_time(t_s, nodes, flits, t_f):
    """A broadcast by one path worm through every node: t_s + (N - 1 + m)
    t_f, m the message's flits (header growth left out)."""
    return t_s + (nodes - 1 + flits) * t_f


def row_column_time(t_s, nodes, flits, t_f):
    """Row-then-column worms: 2 (t_s + (sqrt N - 1 + m) t_f)."""
    return 2 * (t_s + (math.sqrt(nodes) - 1 + flits) * t_f)


# --- seed 004: all-to-all broadcast by controlled flooding ----------------

def corollary1_load(n):
    """Corollary 1: on an n x n torus every channel relays (n^2 - 1)/4
    messages."""
    return (n * n - 1) / 4


def corollary2_bound(n):
    """Corollary 2: on an n x n mesh a channel relays at most (n^2 - 1)/2
    messages."""
    return (n * n - 1) / 2


def theorem4_bound(alpha, n, delta, lgamma):
    """Theorem 4: the delay of controlled flooding on an n x n torus is at
    most alpha + delta + L gamma + ((n^2 - 1)/4 - 1) max(delta, L gamma)
    + min(delta, L gamma) (start-up alpha, switching time delta,
    transmission L gamma)."""
    return (alpha + delta + lgamma + ((n * n - 1) / 4 - 1) * max(delta, lgamma)
            + min(delta, lgamma))


def saad_schultz_time(alpha, n, delta, lgamma):
    """Saad and Schultz's row-column all-to-all broadcast, as the slides
    compare it: 2 alpha + 2 floor(n/2) delta + (n^2 - 1)/2 L gamma."""
    return 2 * alpha + 2 * (n // 2) * delta + (n * n - 1) / 2 * lgamma
