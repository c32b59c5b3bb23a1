//! The kernels without Python: each against a plain reference or a hand-checked value.

use rust_core::attention::{self, check_shapes, Dims, Mask, MaskValues, Options};
use rust_core::embedding::{
    check_ids, check_table_shape, check_vocab_size, embedding_lookup, one_hot,
};
use rust_core::error::{fmt_shape, CoreError};
use rust_core::softmax::{softmax_in_place, softmax_rows};
use rust_core::threads;

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol || (x.is_nan() && y.is_nan()))
}

/// A small deterministic pseudo-random sequence (no rand dependency for tests).
fn lcg(seed: u64, len: usize) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

#[test]
fn softmax_reproduces_the_seed_worked_example() {
    let mut s = [2.5f64, 0.5, 1.0, 0.8];
    softmax_in_place(&mut s);
    let rounded: Vec<f64> = s.iter().map(|x| (x * 1000.0).round() / 1000.0).collect();
    assert_eq!(rounded, vec![0.649, 0.088, 0.145, 0.119]);
    assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-15);
}

#[test]
fn softmax_special_values() {
    let mut big = [1e4f32, -1e4, 0.0];
    softmax_in_place(&mut big);
    assert_eq!(big, [1.0, 0.0, 0.0]);

    let mut some_masked = [f64::NEG_INFINITY, 0.0, f64::NEG_INFINITY, 0.0];
    softmax_in_place(&mut some_masked);
    assert_eq!(some_masked, [0.0, 0.5, 0.0, 0.5]);

    let mut all_masked = [f64::NEG_INFINITY; 3];
    assert!(!softmax_in_place(&mut all_masked));
    assert_eq!(all_masked, [0.0; 3]);

    let mut with_nan = [1.0, f64::NAN, 2.0];
    softmax_in_place(&mut with_nan);
    assert!(with_nan.iter().all(|x| x.is_nan()));

    let mut plus_inf = [1.0, f64::INFINITY];
    softmax_in_place(&mut plus_inf);
    assert!(plus_inf.iter().all(|x| x.is_nan()));

    let mut empty: [f64; 0] = [];
    assert!(!softmax_in_place(&mut empty));
}

#[test]
fn softmax_rows_parallel_equals_row_by_row() {
    let (rows, len) = (300, 257); // more than the parallel threshold, len not a power of two
    let data = lcg(1, rows * len)
        .iter()
        .map(|x| x * 30.0)
        .collect::<Vec<f64>>();
    let mut expected = data.clone();
    expected.chunks_mut(len).for_each(|r| {
        softmax_in_place(r);
    });
    let mut got = data;
    threads::run(usize::MAX, || softmax_rows(&mut got, len)).unwrap();
    assert_eq!(got, expected);
}

/// The textbook computation, one query at a time, with the masking rules of docs/api.md.
#[allow(clippy::too_many_arguments)]
fn reference_attention(
    q: &[f64],
    k: &[f64],
    v: &[f64],
    d: &Dims,
    allowed: &dyn Fn(usize, usize, usize) -> bool,
    add: &dyn Fn(usize, usize, usize) -> f64,
    causal: bool,
    scale: f64,
) -> (Vec<f64>, Vec<f64>) {
    let (mut z, mut w) = (
        vec![0.0; d.batch * d.n * d.d_v],
        vec![0.0; d.batch * d.n * d.m],
    );
    for b in 0..d.batch {
        for i in 0..d.n {
            let scores: Vec<f64> = (0..d.m)
                .map(|j| {
                    if !allowed(b, i, j) || (causal && j > i) {
                        return f64::NEG_INFINITY;
                    }
                    let qi = &q[(b * d.n + i) * d.d_k..][..d.d_k];
                    let kj = &k[(b * d.m + j) * d.d_k..][..d.d_k];
                    qi.iter().zip(kj).map(|(x, y)| x * y).sum::<f64>() * scale + add(b, i, j)
                })
                .collect();
            let mx = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            if mx == f64::NEG_INFINITY {
                continue;
            }
            let e: Vec<f64> = scores.iter().map(|s| (s - mx).exp()).collect();
            let sum: f64 = e.iter().sum();
            for j in 0..d.m {
                let a = e[j] / sum;
                w[(b * d.n + i) * d.m + j] = a;
                for c in 0..d.d_v {
                    z[(b * d.n + i) * d.d_v + c] += a * v[(b * d.m + j) * d.d_v + c];
                }
            }
        }
    }
    (z, w)
}

fn run(q: &[f64], k: &[f64], v: &[f64], d: &Dims, opt: &Options<f64>) -> (Vec<f64>, Vec<f64>) {
    let mut z = vec![0.0; d.batch * d.n * d.d_v];
    let mut w = vec![0.0; d.batch * d.n * d.m];
    threads::run(usize::MAX, || {
        attention::attention(q, k, v, d, opt, &mut z);
        attention::attention_weights(q, k, d, opt, &mut w);
    })
    .unwrap();
    (z, w)
}

#[test]
fn attention_matches_the_reference_for_many_shapes() {
    for &(lead, n, m, d_k, d_v) in &[
        (&[1usize][..], 4usize, 4usize, 2usize, 2usize),
        (&[2, 3][..], 5, 7, 9, 3),
        (&[][..], 33, 17, 64, 8),
        (&[4][..], 130, 130, 16, 16), // above the parallel threshold
        (&[1][..], 0, 5, 3, 3),
        (&[2][..], 3, 0, 3, 2),
        (&[2][..], 3, 4, 0, 2),
    ] {
        let dims = check_shapes(
            &[lead, &[n, d_k]].concat(),
            &[lead, &[m, d_k]].concat(),
            Some(&[lead, &[m, d_v]].concat()),
        )
        .unwrap();
        let q = lcg(2, dims.batch * n * d_k);
        let k = lcg(3, dims.batch * m * d_k);
        let v = lcg(4, dims.batch * m * d_v);
        for causal in [false, true] {
            let scale = attention::default_scale(d_k);
            let opt = Options {
                mask: None,
                causal,
                scale,
            };
            let (z, w) = run(&q, &k, &v, &dims, &opt);
            let (rz, rw) = reference_attention(
                &q,
                &k,
                &v,
                &dims,
                &|_, _, _| true,
                &|_, _, _| 0.0,
                causal,
                scale,
            );
            assert!(
                close(&z, &rz, 1e-12),
                "z differs for {dims:?} causal={causal}"
            );
            assert!(
                close(&w, &rw, 1e-12),
                "weights differ for {dims:?} causal={causal}"
            );
        }
    }
}

#[test]
fn masks_broadcast_and_fully_masked_rows_give_zeros() {
    let dims = check_shapes(&[2, 3, 4, 5], &[2, 3, 6, 5], Some(&[2, 3, 6, 2])).unwrap();
    let q = lcg(5, 2 * 3 * 4 * 5);
    let k = lcg(6, 2 * 3 * 6 * 5);
    let v = lcg(7, 2 * 3 * 6 * 2);
    // A [3, 1, 6] bool mask: per head, per key; head 1 allows nothing.
    let allow: Vec<bool> = (0..3 * 6).map(|x| x / 6 != 1 && x % 6 != 2).collect();
    let mask = Mask::broadcast(MaskValues::Allow(&allow), &[3, 1, 6], &dims).unwrap();
    let opt = Options {
        mask: Some(mask),
        causal: false,
        scale: 0.5,
    };
    let (z, w) = run(&q, &k, &v, &dims, &opt);
    let heads = 3;
    let allowed = |b: usize, _i: usize, j: usize| allow[(b % heads) * 6 + j];
    let (rz, rw) = reference_attention(&q, &k, &v, &dims, &allowed, &|_, _, _| 0.0, false, 0.5);
    assert!(close(&z, &rz, 1e-12) && close(&w, &rw, 1e-12));
    // Head 1 of each batch is fully masked: zero weights and zero output.
    for b in [1, 4] {
        assert!(z[b * 4 * 2..(b + 1) * 4 * 2].iter().all(|&x| x == 0.0));
        assert!(w[b * 4 * 6..(b + 1) * 4 * 6].iter().all(|&x| x == 0.0));
    }

    // A float [4, 6] mask added to every batch and head.
    let add = lcg(8, 4 * 6);
    let mask = Mask::broadcast(MaskValues::Add(&add), &[4, 6], &dims).unwrap();
    let opt = Options {
        mask: Some(mask),
        causal: true,
        scale: 0.5,
    };
    let (z, w) = run(&q, &k, &v, &dims, &opt);
    let (rz, rw) = reference_attention(
        &q,
        &k,
        &v,
        &dims,
        &|_, _, _| true,
        &|_, i, j| add[i * 6 + j],
        true,
        0.5,
    );
    assert!(close(&z, &rz, 1e-12) && close(&w, &rw, 1e-12));
}

#[test]
fn mask_that_does_not_broadcast_is_a_value_error() {
    let dims = check_shapes(&[2, 4, 5], &[2, 6, 5], None).unwrap();
    let allow = vec![true; 3 * 6];
    let err = Mask::broadcast(MaskValues::<f64>::Allow(&allow), &[3, 6], &dims).unwrap_err();
    assert_eq!(
        err,
        CoreError::Value(
            "mask of shape (3, 6) cannot be broadcast to the scores' shape (2, 4, 6)".into()
        )
    );
    let err = Mask::broadcast(MaskValues::<f64>::Allow(&allow), &[1, 1, 3, 6], &dims).unwrap_err();
    assert!(matches!(err, CoreError::Value(_)));
}

#[test]
fn shape_errors_name_both_shapes() {
    let e = check_shapes(&[4, 8], &[5, 7], None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "q has shape (4, 8) and k has shape (5, 7): their last dimensions (d_k) differ"
    );
    let e = check_shapes(&[2, 4, 8], &[3, 5, 8], None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "q has shape (2, 4, 8) and k has shape (3, 5, 8): leading dimensions must be equal"
    );
    let e = check_shapes(&[4, 8], &[5, 8], Some(&[6, 2])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "k has shape (5, 8) and v has shape (6, 2): they must have the same number of keys (m)"
    );
    let e = check_shapes(&[8], &[5, 8], None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "q must have at least 2 dimensions [..., n, d], got shape (8,)"
    );
    assert_eq!(fmt_shape(&[]), "()");
}

#[test]
fn threaded_results_equal_single_threaded() {
    let dims = check_shapes(&[3, 4, 200, 32], &[3, 4, 150, 32], Some(&[3, 4, 150, 16])).unwrap();
    let q = lcg(9, 3 * 4 * 200 * 32);
    let k = lcg(10, 3 * 4 * 150 * 32);
    let v = lcg(11, 3 * 4 * 150 * 16);
    let opt = Options {
        mask: None,
        causal: true,
        scale: 0.2,
    };
    threads::set_num_threads(1).unwrap();
    let one = run(&q, &k, &v, &dims, &opt);
    threads::set_num_threads(4).unwrap();
    let four = run(&q, &k, &v, &dims, &opt);
    assert_eq!(one, four);
    assert_eq!(threads::get_num_threads().unwrap(), 4);
    assert!(threads::set_num_threads(0).is_err());
}

#[test]
fn embedding_lookup_copies_rows_and_equals_one_hot_times_table() {
    let (vocab, d) = (50, 7);
    let table = lcg(12, vocab * d);
    let ids: Vec<i64> = (0..20_000).map(|i| (i * 37 % vocab) as i64).collect();
    let rows = check_ids(&ids, vocab).unwrap();
    let mut out = vec![0.0; rows.len() * d];
    threads::run(usize::MAX, || embedding_lookup(&table, d, &rows, &mut out)).unwrap();
    for (i, &r) in rows.iter().enumerate() {
        assert_eq!(&out[i * d..(i + 1) * d], &table[r * d..(r + 1) * d]);
    }
    let few = &rows[..5];
    let mut hot = vec![0.0; few.len() * vocab];
    one_hot(few, vocab, 1.0, &mut hot);
    for (i, &r) in few.iter().enumerate() {
        let product: Vec<f64> = (0..d)
            .map(|c| {
                (0..vocab)
                    .map(|t| hot[i * vocab + t] * table[t * d + c])
                    .sum()
            })
            .collect();
        assert_eq!(product, &table[r * d..(r + 1) * d]);
    }
}

#[test]
fn id_and_table_errors() {
    assert_eq!(
        check_ids(&[1u64, u64::MAX], 10).unwrap_err(),
        CoreError::Index(
            "id 18446744073709551615 is out of range for a vocabulary of size 10".into()
        )
    );
    assert_eq!(
        check_ids(&[-1i8], 10).unwrap_err().to_string(),
        "id -1 is out of range for a vocabulary of size 10"
    );
    assert_eq!(
        check_table_shape(&[3]).unwrap_err().to_string(),
        "table must be 2-D [V, d], got shape (3,)"
    );
    assert_eq!(
        check_vocab_size(0).unwrap_err().to_string(),
        "vocab_size must be at least 1, got 0"
    );
}
