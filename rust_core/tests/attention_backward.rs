//! `attention_backward` against a plain float64 reference that materialises the weights P, and
//! that reference against central finite differences of the forward.

use rust_core::kernels::attention_backward::{attention_backward, AttentionGrad};
use rust_core::kernels::attention_inputs::{
    check_shapes, Dims, Mask, MaskLayout, MaskValues, Options,
};
use rust_core::runtime::threads;

mod support;
use support::lcg;

/// Tests that resize the global pool take this lock (cargo runs tests on parallel threads).
static POOL_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A mask as the reference reads it: bool (allowed) or float (added), in C order, broadcast.
#[derive(Clone)]
enum RefMask {
    Allow(Vec<bool>, Vec<usize>),
    Add(Vec<f64>, Vec<usize>),
}

/// One problem: shapes, inputs in float64 (C order) and the options.
struct Case {
    q_shape: Vec<usize>,
    k_shape: Vec<usize>,
    v_shape: Vec<usize>,
    q: Vec<f64>,
    k: Vec<f64>,
    v: Vec<f64>,
    grad_out: Vec<f64>,
    mask: Option<RefMask>,
    causal: bool,
    scale: f64,
}

impl Case {
    fn new(
        q_lead: &[usize],
        kv_lead: &[usize],
        n: usize,
        m: usize,
        d_k: usize,
        d_v: usize,
    ) -> Self {
        let shape = |lead: &[usize], a: usize, b: usize| [lead, &[a, b]].concat();
        let (q_shape, k_shape, v_shape) = (
            shape(q_lead, n, d_k),
            shape(kv_lead, m, d_k),
            shape(kv_lead, m, d_v),
        );
        let len = |s: &[usize]| s.iter().product::<usize>();
        let dims = check_shapes(&q_shape, &k_shape, Some(&v_shape)).unwrap();
        Case {
            q: lcg(1, len(&q_shape)).iter().map(|x| 2.0 * x).collect(),
            k: lcg(2, len(&k_shape)),
            v: lcg(3, len(&v_shape)),
            grad_out: lcg(4, len(&dims.output_shape())),
            q_shape,
            k_shape,
            v_shape,
            mask: None,
            causal: false,
            scale: 1.0 / (d_k.max(1) as f64).sqrt(),
        }
    }

    fn dims(&self) -> Dims {
        check_shapes(&self.q_shape, &self.k_shape, Some(&self.v_shape)).unwrap()
    }
}

/// Where mask element (b, i, j) lies in a C-ordered mask of `shape` broadcast to `dims`' scores.
fn mask_index(shape: &[usize], dims: &Dims, b: usize, i: usize, j: usize) -> usize {
    let target = dims.scores_shape();
    let mut idx = vec![0usize; target.len()];
    let mut rest = b;
    for axis in (0..dims.lead.len()).rev() {
        idx[axis] = rest % dims.lead[axis];
        rest /= dims.lead[axis];
    }
    idx[target.len() - 2] = i;
    idx[target.len() - 1] = j;
    let offset = target.len() - shape.len();
    let mut flat = 0;
    for (a, &size) in shape.iter().enumerate() {
        let x = if size == 1 { 0 } else { idx[a + offset] };
        flat = flat * size + x;
    }
    flat
}

/// The weights P [batch, n, m] and, per query row, whether it attends to anything.
fn reference_weights(c: &Case) -> (Vec<f64>, Vec<bool>) {
    let dims = c.dims();
    let Dims { n, m, d_k, .. } = dims;
    let mut p = vec![0.0; dims.batch * n * m];
    let mut live = vec![false; dims.batch * n];
    for b in 0..dims.batch {
        let kv = dims.kv(b);
        for i in 0..n {
            let q_i = &c.q[(b * n + i) * d_k..(b * n + i + 1) * d_k];
            let mut s: Vec<f64> = (0..m)
                .map(|j| {
                    let k_j = &c.k[(kv * m + j) * d_k..(kv * m + j + 1) * d_k];
                    let mut x = q_i.iter().zip(k_j).map(|(a, b)| a * b).sum::<f64>() * c.scale;
                    match &c.mask {
                        Some(RefMask::Allow(a, shape)) if !a[mask_index(shape, &dims, b, i, j)] => {
                            x += f64::NEG_INFINITY
                        }
                        Some(RefMask::Add(a, shape)) => x += a[mask_index(shape, &dims, b, i, j)],
                        _ => {}
                    }
                    if c.causal && j > i {
                        f64::NEG_INFINITY
                    } else {
                        x
                    }
                })
                .collect();
            let max = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            if s.iter().any(|x| x.is_nan()) || max == f64::INFINITY {
                s.fill(f64::NAN); // softmax of a row with NaN or +inf
                live[b * n + i] = true;
            } else if max == f64::NEG_INFINITY {
                s.fill(0.0);
            } else {
                let sum: f64 = s
                    .iter_mut()
                    .map(|x| {
                        *x = (*x - max).exp();
                        *x
                    })
                    .sum();
                s.iter_mut().for_each(|x| *x /= sum);
                live[b * n + i] = true;
            }
            p[(b * n + i) * m..(b * n + i + 1) * m].copy_from_slice(&s);
        }
    }
    (p, live)
}

/// attention(q, k, v) by the plain formula Z = P V (zeros for a query that attends to nothing).
fn reference_forward(c: &Case) -> Vec<f64> {
    let dims = c.dims();
    let Dims { n, m, d_v, .. } = dims;
    let (p, _) = reference_weights(c);
    let mut z = vec![0.0; dims.batch * n * d_v];
    for b in 0..dims.batch {
        for i in 0..n {
            for j in 0..m {
                let w = p[(b * n + i) * m + j];
                for t in 0..d_v {
                    z[(b * n + i) * d_v + t] += w * c.v[(dims.kv(b) * m + j) * d_v + t];
                }
            }
        }
    }
    z
}

/// The gradients by the textbook formulas over the materialised P:
/// dV = Pᵀ dO, dP = dO Vᵀ, dS = P ∘ (dP − rowsum(P ∘ dP)), dQ = scale·dS K, dK = scale·dSᵀ Q.
fn reference_backward(c: &Case) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let dims = c.dims();
    let Dims { n, m, d_k, d_v, .. } = dims;
    let (p, live) = reference_weights(c);
    let mut gq = vec![0.0; c.q.len()];
    let mut gk = vec![0.0; c.k.len()];
    let mut gv = vec![0.0; c.v.len()];
    for b in 0..dims.batch {
        let kv = dims.kv(b);
        for i in 0..n {
            let r = b * n + i;
            if !live[r] {
                continue;
            }
            let d_o = &c.grad_out[r * d_v..(r + 1) * d_v];
            let dp: Vec<f64> = (0..m)
                .map(|j| {
                    let v_j = &c.v[(kv * m + j) * d_v..(kv * m + j + 1) * d_v];
                    d_o.iter().zip(v_j).map(|(a, b)| a * b).sum()
                })
                .collect();
            let p_i = &p[r * m..(r + 1) * m];
            let d: f64 = p_i.iter().zip(&dp).map(|(a, b)| a * b).sum();
            for j in 0..m {
                let ds = p_i[j] * (dp[j] - d);
                for t in 0..d_k {
                    gq[r * d_k + t] += c.scale * ds * c.k[(kv * m + j) * d_k + t];
                    gk[(kv * m + j) * d_k + t] += c.scale * ds * c.q[r * d_k + t];
                }
                for t in 0..d_v {
                    gv[(kv * m + j) * d_v + t] += p_i[j] * d_o[t];
                }
            }
        }
    }
    (gq, gk, gv)
}

/// The kernel in T on the case's inputs, with `threads` threads (in the pool, as the binding runs
/// big calls), returned in float64.
fn kernel<T: AttentionGrad>(c: &Case, threads: i64) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let dims = c.dims();
    let conv = |x: &[f64]| x.iter().map(|&v| T::from_f64_lossy(v)).collect::<Vec<T>>();
    let (q, k, v, d_o) = (conv(&c.q), conv(&c.k), conv(&c.v), conv(&c.grad_out));
    let (allow, add) = match &c.mask {
        Some(RefMask::Allow(a, s)) => (Some((a.clone(), s.clone())), None),
        Some(RefMask::Add(a, s)) => (None, Some((conv(a), s.clone()))),
        None => (None, None),
    };
    let mask = match (&allow, &add) {
        (Some((a, s)), _) => Some(Mask {
            values: MaskValues::Allow(a),
            layout: MaskLayout::new(s, &dims).unwrap(),
        }),
        (_, Some((a, s))) => Some(Mask {
            values: MaskValues::Add(a),
            layout: MaskLayout::new(s, &dims).unwrap(),
        }),
        _ => None,
    };
    let opt = Options {
        mask,
        causal: c.causal,
        scale: T::from_f64_lossy(c.scale),
    };
    // NaN-filled: every element must be written.
    let mut gq = vec![T::nan(); q.len()];
    let mut gk = vec![T::nan(); k.len()];
    let mut gv = vec![T::nan(); v.len()];
    threads::set_num_threads(threads).unwrap();
    threads::run(usize::MAX, || {
        attention_backward(&q, &k, &v, &d_o, &dims, &opt, &mut gq, &mut gk, &mut gv)
    })
    .unwrap();
    let back = |x: Vec<T>| {
        x.into_iter()
            .map(|v| v.to_f64().unwrap())
            .collect::<Vec<f64>>()
    };
    (back(gq), back(gk), back(gv))
}

/// Largest |a − b| / (1 + |b|), NaN when either is NaN where the other is not.
fn worst(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).fold(0.0, |w: f64, (x, y)| {
        if x.is_nan() && y.is_nan() {
            w
        } else {
            let e = (x - y).abs() / (1.0 + y.abs());
            if e.is_nan() {
                f64::INFINITY
            } else {
                w.max(e)
            }
        }
    })
}

/// The kernel in float64 and float32 (1 and 2 threads) against the reference.
fn check_case(c: &Case, what: &str) {
    let _lock = POOL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let want = reference_backward(c);
    let names = ["grad_q", "grad_k", "grad_v"];
    let mut first: Option<(Vec<f64>, Vec<f64>, Vec<f64>)> = None;
    for threads in [1, 2] {
        let got = kernel::<f64>(c, threads);
        for (name, (g, w)) in
            names
                .iter()
                .zip([(&got.0, &want.0), (&got.1, &want.1), (&got.2, &want.2)])
        {
            let e = worst(g, w);
            assert!(
                e < 1e-12,
                "{what}: f64 {name} off by {e} ({threads} threads)"
            );
        }
        let got = kernel::<f32>(c, threads);
        for (name, (g, w)) in
            names
                .iter()
                .zip([(&got.0, &want.0), (&got.1, &want.1), (&got.2, &want.2)])
        {
            let e = worst(g, w);
            assert!(
                e < 2e-5,
                "{what}: f32 {name} off by {e} ({threads} threads)"
            );
        }
        // The same bits for any number of threads.
        match &first {
            None => first = Some(got),
            Some(f) => assert!(
                f.0.iter()
                    .zip(&got.0)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
                    && f.1
                        .iter()
                        .zip(&got.1)
                        .all(|(a, b)| a.to_bits() == b.to_bits())
                    && f.2
                        .iter()
                        .zip(&got.2)
                        .all(|(a, b)| a.to_bits() == b.to_bits()),
                "{what}: results depend on the number of threads"
            ),
        }
    }
}

#[test]
fn plain_attention_over_several_tiles() {
    check_case(&Case::new(&[2], &[2], 130, 150, 16, 24), "plain");
}

#[test]
fn causal_over_several_tiles() {
    let mut c = Case::new(&[3], &[3], 150, 150, 16, 24);
    c.causal = true;
    check_case(&c, "causal n = m");
    // More queries than keys and more keys than queries (top-left aligned).
    let mut c = Case::new(&[2], &[2], 200, 70, 8, 5);
    c.causal = true;
    check_case(&c, "causal n > m");
    let mut c = Case::new(&[2], &[2], 40, 300, 8, 5);
    c.causal = true;
    check_case(&c, "causal n < m");
}

#[test]
fn bool_mask_with_a_fully_masked_row() {
    let (n, m) = (70, 130);
    let mut c = Case::new(&[2], &[2], n, m, 12, 7);
    let mut allow: Vec<bool> = (0..n * m).map(|x| (x * 7) % 5 != 1).collect();
    allow[3 * m..4 * m].fill(false); // query 3 attends to nothing
    allow[65 * m..66 * m].fill(false); // nor query 65 (the second block)
    c.mask = Some(RefMask::Allow(allow, vec![n, m]));
    // Its grad_out row is infinite: it must still add nothing anywhere.
    c.grad_out[3 * 7] = f64::INFINITY;
    check_case(&c, "bool mask");
    let (gq, gk, gv) = kernel::<f32>(&c, 1);
    assert!(gq[3 * 12..4 * 12].iter().all(|&x| x == 0.0));
    assert!(gq[(n + 3) * 12..(n + 4) * 12].iter().all(|&x| x == 0.0));
    assert!(gk.iter().chain(&gv).all(|x| x.is_finite()));
    // With causal as well.
    c.causal = true;
    check_case(&c, "bool mask, causal");
}

#[test]
fn float_mask_broadcast() {
    let (n, m) = (65, 200);
    let mut c = Case::new(&[2, 2], &[2, 2], n, m, 16, 16);
    // One row of additive values over the keys, with −inf at some, broadcast to every query.
    let add: Vec<f64> = lcg(9, m)
        .iter()
        .map(|&x| if x > 0.7 { f64::NEG_INFINITY } else { 3.0 * x })
        .collect();
    c.mask = Some(RefMask::Add(add, vec![m]));
    check_case(&c, "float mask (m,)");
    // Per head and query, with one query fully masked in head 1.
    let mut add: Vec<f64> = lcg(10, 2 * n * m).iter().map(|&x| 2.0 * x).collect();
    add[(n + 5) * m..(n + 6) * m].fill(f64::NEG_INFINITY);
    c.mask = Some(RefMask::Add(add, vec![2, 1, n, m]));
    c.causal = true;
    check_case(&c, "float mask (2, 1, n, m), causal");
}

#[test]
fn grouped_query_heads() {
    // 8 query heads share 2 key/value heads (g = 4), over 2 batches; more than 128 keys, so
    // float32 takes the tiled kernels, not whole heads (`small_heads_taken_whole`).
    let mut c = Case::new(&[2, 8], &[2, 2], 33, 150, 16, 8);
    check_case(&c, "grouped");
    c.causal = true;
    check_case(&c, "grouped, causal");
}

#[test]
fn small_heads_taken_whole() {
    // Heads of at most 128 queries and keys and 64 values a row without a mask: float32 takes
    // the whole-head path (`attention_head`), the learner's 32 × 32 heads first.
    let mut c = Case::new(&[2, 4], &[2, 4], 32, 32, 16, 16);
    check_case(&c, "small heads");
    c.causal = true;
    check_case(&c, "small heads, causal");
    let mut c = Case::new(&[3], &[1], 9, 64, 5, 64);
    c.causal = true;
    check_case(&c, "grouped small heads, causal, n < m");
    // MiniLM's heads at 128 tokens, and a causal head at the largest sizes taken whole.
    check_case(&Case::new(&[2, 3], &[2, 3], 128, 128, 32, 32), "128 tokens");
    let mut c = Case::new(&[2], &[2], 128, 100, 64, 48);
    c.causal = true;
    check_case(&c, "128 queries, causal, n > m");
    // An infinite key in head 1: that head is left to the tiled kernel, head 0 is not.
    let mut c = Case::new(&[2], &[2], 20, 20, 4, 4);
    c.k[20 * 4 + 3] = f64::INFINITY;
    c.causal = true;
    check_case(&c, "an infinite key");
}

#[test]
fn few_queries_many_keys_and_the_reverse() {
    check_case(&Case::new(&[3], &[3], 1, 257, 32, 40), "n = 1");
    check_case(&Case::new(&[3], &[3], 5, 300, 8, 8), "n = 5");
    check_case(&Case::new(&[1], &[1], 300, 3, 4, 2), "m = 3");
}

#[test]
fn keys_beyond_the_cache_are_recomputed() {
    // 2 · 128 · 4500 scores and dP values are more than a task caches: the second pass
    // recomputes them (causal cuts the keys to the block's, which it caches again).
    let (n, m) = (130, 4500);
    let mut c = Case::new(&[1], &[1], n, m, 4, 3);
    let allow: Vec<bool> = (0..n * m).map(|x| x % 3 != 0 && x / m != 9).collect();
    c.mask = Some(RefMask::Allow(allow, vec![n, m]));
    check_case(&c, "long rows of keys");
    c.causal = true;
    check_case(&c, "long rows of keys, causal");
}

#[test]
fn empty_dimensions() {
    for (n, m, d_k, d_v) in [(0, 5, 4, 3), (5, 0, 4, 3), (5, 6, 0, 3), (5, 6, 4, 0)] {
        let mut c = Case::new(&[2], &[2], n, m, d_k, d_v);
        check_case(&c, &format!("n={n} m={m} d_k={d_k} d_v={d_v}"));
        c.causal = true;
        check_case(&c, &format!("causal n={n} m={m} d_k={d_k} d_v={d_v}"));
    }
}

#[test]
fn nan_spreads_as_in_the_plain_formulas() {
    // A NaN query: its softmax row is NaN, so is every key's and value's gradient of that head.
    let mut c = Case::new(&[2], &[2], 20, 30, 4, 3);
    c.q[5 * 4] = f64::NAN;
    c.causal = true;
    check_case(&c, "NaN query");
    let (gq, gk, gv) = kernel::<f32>(&c, 1);
    assert!(gq[5 * 4..6 * 4].iter().all(|x| x.is_nan()));
    assert!(gk[..30 * 4].iter().all(|x| x.is_nan()) && gv[..30 * 3].iter().all(|x| x.is_nan()));
    assert!(gk[30 * 4..].iter().all(|x| x.is_finite()));
}

#[test]
fn an_infinite_score_under_causal_reaches_the_hidden_keys() {
    // +inf from the float mask: query 4's softmax row is NaN at the keys causal hides from its
    // block too, which the second pass may then not skip.
    let (n, m) = (20, 30);
    let mut c = Case::new(&[1], &[1], n, m, 4, 3);
    let mut add = vec![0.0; n * m];
    add[4 * m + 2] = f64::INFINITY;
    c.mask = Some(RefMask::Add(add, vec![n, m]));
    c.causal = true;
    check_case(&c, "+inf score, causal");
    let (_, gk, _) = kernel::<f64>(&c, 1);
    assert!(gk.iter().all(|x| x.is_nan()));
}

/// Σ grad_out ∘ attention(q, k, v): the loss whose gradients are those of `reference_backward`.
fn loss(c: &Case) -> f64 {
    reference_forward(c)
        .iter()
        .zip(&c.grad_out)
        .map(|(z, g)| z * g)
        .sum()
}

#[test]
fn the_reference_matches_central_finite_differences() {
    // 2 query heads over 1 key/value head, a float mask with a −inf and a fully masked query,
    // causal, n ≠ m.
    let (n, m) = (4, 5);
    let mut c = Case::new(&[2], &[1], n, m, 3, 2);
    let mut add: Vec<f64> = lcg(11, n * m).iter().map(|&x| 0.5 * x).collect();
    add[m + 1] = f64::NEG_INFINITY;
    add[2 * m..3 * m].fill(f64::NEG_INFINITY); // query 2 attends to nothing
    c.mask = Some(RefMask::Add(add, vec![n, m]));
    c.causal = true;
    c.scale = 0.7;
    let (gq, gk, gv) = reference_backward(&c);
    let h = 1e-5;
    for (which, grad) in [(0, &gq), (1, &gk), (2, &gv)] {
        for idx in 0..grad.len() {
            let at = |delta: f64| {
                let mut d = Case {
                    mask: c.mask.clone(),
                    ..Case::new(&[2], &[1], n, m, 3, 2)
                };
                d.causal = c.causal;
                d.scale = c.scale;
                let x = match which {
                    0 => &mut d.q,
                    1 => &mut d.k,
                    _ => &mut d.v,
                };
                x[idx] += delta;
                loss(&d)
            };
            let numeric = (at(h) - at(-h)) / (2.0 * h);
            assert!(
                (numeric - grad[idx]).abs() < 1e-8,
                "input {which} element {idx}: {numeric} by differences, {} by the formulas",
                grad[idx]
            );
        }
    }
    // The fully masked query has zero gradients.
    assert!(gq[2 * 3..3 * 3]
        .iter()
        .chain(&gq[(n + 2) * 3..(n + 3) * 3])
        .all(|&x| x == 0.0));
}
