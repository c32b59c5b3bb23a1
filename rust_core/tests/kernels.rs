//! The kernels without Python: each against a plain reference or a hand-checked value.

use rust_core::error::{fmt_shape, CoreError};
use rust_core::kernels::attention;
use rust_core::kernels::attention_inputs::{
    self, check_shapes, Dims, Mask, MaskLayout, MaskValues, Options,
};
use rust_core::kernels::embedding::{
    check_ids, check_table_shape, check_vocab_size, embedding_lookup, one_hot,
};
use rust_core::kernels::softmax::{softmax_in_place, softmax_rows, softmax_rows_into};
use rust_core::runtime::threads;

mod support;
use support::{close, lcg};

/// A mask of `values` (C order) and `shape`, broadcast to the scores of `dims` (E13 checked).
fn mask<'a, T>(
    values: MaskValues<'a, T>,
    shape: &[usize],
    dims: &Dims,
) -> Result<Mask<'a, T>, CoreError> {
    Ok(Mask {
        values,
        layout: MaskLayout::new(shape, dims)?,
    })
}

/// Tests that resize the global pool take this lock (cargo runs tests on parallel threads).
static POOL_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The weights of "his" in the worked example of the article "从词向量到 Transformer".
#[test]
fn softmax_reproduces_the_articles_worked_example() {
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
    let (rows, len) = (600, 257); // above the parallel threshold, len not a power of two
    let data = lcg(1, rows * len)
        .iter()
        .map(|x| x * 30.0)
        .collect::<Vec<f64>>();
    let mut expected = data.clone();
    expected.chunks_mut(len).for_each(|r| {
        softmax_in_place(r);
    });
    let mut into = vec![0.0; data.len()];
    threads::run(usize::MAX, || softmax_rows_into(&data, &mut into, len)).unwrap();
    assert_eq!(into, expected);
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

/// `attention` and `attention_weights` in the pool; `attention_with_weights` must give the same
/// weights bit for bit and the same output within rounding.
fn run(q: &[f64], k: &[f64], v: &[f64], d: &Dims, opt: &Options<f64>) -> (Vec<f64>, Vec<f64>) {
    let mut z = vec![0.0; d.batch * d.n * d.d_v];
    let mut w = vec![0.0; d.batch * d.n * d.m];
    let (mut z2, mut w2) = (vec![f64::NAN; z.len()], vec![f64::NAN; w.len()]);
    threads::run(usize::MAX, || {
        attention::attention(q, k, v, d, opt, &mut z);
        attention::attention_weights(q, k, d, opt, &mut w);
        attention::attention_with_weights(q, k, v, d, opt, &mut z2, &mut w2);
    })
    .unwrap();
    assert_eq!(w2, w, "attention_with_weights: weights differ for {d:?}");
    assert!(
        close(&z2, &z, 1e-12),
        "attention_with_weights: output differs for {d:?}"
    );
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
            let scale = attention_inputs::default_scale(d_k);
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
    let opt = Options {
        mask: Some(mask(MaskValues::Allow(&allow), &[3, 1, 6], &dims).unwrap()),
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
    let opt = Options {
        mask: Some(mask(MaskValues::Add(&add), &[4, 6], &dims).unwrap()),
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
    let err = mask(MaskValues::<f64>::Allow(&allow), &[3, 6], &dims).unwrap_err();
    assert_eq!(
        err,
        CoreError::Value(
            "mask of shape (3, 6) cannot be broadcast to the scores' shape (2, 4, 6)".into()
        )
    );
    let err = mask(MaskValues::<f64>::Allow(&allow), &[1, 1, 3, 6], &dims).unwrap_err();
    assert!(matches!(err, CoreError::Value(_)));
}

#[test]
fn shape_errors_name_both_shapes() {
    let e = check_shapes(&[4, 8], &[5, 7], None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "q has shape (4, 8) and k has shape (5, 7): their last dimensions (d_k) differ"
    );
    let e = check_shapes(&[2, 1, 4, 8], &[3, 1, 5, 8], None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "q has shape (2, 1, 4, 8) and k has shape (3, 1, 5, 8): leading dimensions must be equal"
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
    let _pool = POOL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    threads::set_num_threads(1).unwrap();
    let one = run(&q, &k, &v, &dims, &opt);
    threads::set_num_threads(4).unwrap();
    let four = run(&q, &k, &v, &dims, &opt);
    assert_eq!(one, four);
    assert_eq!(threads::get_num_threads().unwrap(), 4);
    assert!(threads::set_num_threads(0).is_err());
    assert!(threads::set_num_threads(1025).is_err()); // would otherwise spawn them all
}

#[test]
fn embedding_lookup_copies_rows_and_equals_one_hot_times_table() {
    let (vocab, d) = (50, 16);
    let table = lcg(12, vocab * d);
    let ids: Vec<i64> = (0..600_000).map(|i| (i * 37 % vocab) as i64).collect(); // parallel path
    check_ids(&ids, vocab).unwrap();
    let rows: Vec<usize> = ids.iter().map(|&i| i as usize).collect();
    let mut out = vec![0.0; rows.len() * d];
    threads::run(usize::MAX, || embedding_lookup(&table, d, &ids, &mut out)).unwrap();
    for (i, &r) in rows.iter().enumerate() {
        assert_eq!(&out[i * d..(i + 1) * d], &table[r * d..(r + 1) * d]);
    }
    let few = &ids[..5];
    let mut hot = vec![0.0; few.len() * vocab];
    one_hot(few, vocab, 1.0, &mut hot);
    for (i, &r) in rows[..5].iter().enumerate() {
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
fn embedding_lookup_streams_odd_rows_into_misaligned_output() {
    // Outputs of 4 MB and more with rows of 1 KB and more take the streaming-store path (d = 7,
    // short rows, does not): rows that end mid-line, an output that starts 4 bytes past a cache
    // line, and a row count that leaves a partial task.
    for d in [7usize, 256, 263, 384] {
        let vocab = 1000;
        let table: Vec<f32> = (0..vocab * d).map(|i| i as f32).collect();
        let n = (1 << 22) / (4 * d) + 123;
        let ids: Vec<u16> = (0..n).map(|i| (i * 7919 % vocab) as u16).collect();
        let expected: Vec<f32> = ids
            .iter()
            .flat_map(|&r| table[r as usize * d..(r as usize + 1) * d].iter().copied())
            .collect();
        let mut buf = vec![f32::NAN; n * d + 1];
        embedding_lookup(&table, d, &ids, &mut buf[1..]); // on this thread
        assert!(buf[1..] == expected[..], "d = {d}, one thread");
        buf.fill(f32::NAN);
        let out = &mut buf[1..];
        threads::run(usize::MAX, || embedding_lookup(&table, d, &ids, out)).unwrap(); // pool
        assert!(buf[1..] == expected[..], "d = {d}, in the pool");
    }
}

#[test]
fn id_and_table_errors() {
    assert_eq!(
        check_ids(&[1u64, u64::MAX, 11], 10).unwrap_err(),
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

#[test]
fn dense_kernels_match_plain_loops() {
    use rust_core::kernels::dense::{check_layer_norm, check_linear, gelu, layer_norm, linear};
    let (rows, d_in, d_out) = (300, 128, 120); // above the pool threshold; row blocks with a remainder
    let x = lcg(30, rows * d_in);
    let w = lcg(31, d_out * d_in);
    let b = lcg(32, d_out);
    let mut y = vec![0.0; rows * d_out];
    let _pool = POOL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    threads::run(usize::MAX, || {
        linear(&x, (&w, None), Some(&b), d_in, d_out, &mut y)
    })
    .unwrap();
    for r in 0..rows {
        for o in 0..d_out {
            let want: f64 = (0..d_in)
                .map(|i| x[r * d_in + i] * w[o * d_in + i])
                .sum::<f64>()
                + b[o];
            assert!((y[r * d_out + o] - want).abs() < 1e-12);
        }
    }
    let (g, beta) = (lcg(33, d_in), lcg(34, d_in));
    let shifted: Vec<f64> = x.iter().map(|v| v + 1000.0).collect(); // |mean| ≫ std
    let mut ln = vec![0.0; rows * d_in];
    threads::run(usize::MAX, || {
        layer_norm(&shifted, None, (&g, &beta), 1e-12, d_in, &mut ln)
    })
    .unwrap();
    for r in 0..rows {
        let row = &shifted[r * d_in..(r + 1) * d_in];
        let mean = row.iter().sum::<f64>() / d_in as f64;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d_in as f64;
        for i in 0..d_in {
            let want = (row[i] - mean) / (var + 1e-12).sqrt() * g[i] + beta[i];
            assert!((ln[r * d_in + i] - want).abs() < 1e-9);
        }
    }
    let mut out = [0.0f64; 3];
    gelu(&[-1.0, 0.0, 1.0], None, &mut out);
    assert!((out[2] - 0.841_344_746_068_542_9).abs() < 1e-15 && out[1] == 0.0);
    assert!((out[0] + 0.158_655_253_931_457_05).abs() < 1e-15);

    assert_eq!(
        check_linear(&[4, 3], &[2, 3], Some(&[2])).unwrap(),
        (4, 3, 2)
    );
    assert_eq!(
        check_linear(&[4, 3], &[2, 5], None).unwrap_err().to_string(),
        "x has shape (4, 3) and weight has shape (2, 5): x's last dimension must equal weight's second (in)"
    );
    assert_eq!(
        check_layer_norm(&[4, 3], &[3], &[3], None, -1.0)
            .unwrap_err()
            .to_string(),
        "eps must be a finite number >= 0, got -1.0"
    );
}

#[test]
fn the_fused_residual_and_bias_give_the_numbers_of_the_separate_sums() {
    use rust_core::kernels::dense::{check_gelu, check_layer_norm, gelu, layer_norm};
    // 70 rows of 1536: several of the norm's parts and of GELU's (11 rows each), the last short.
    let (rows, d) = (70, 1536);
    let f32s = |seed, n| lcg(seed, n).iter().map(|&v| v as f32).collect::<Vec<f32>>();
    let (x, r, b) = (f32s(40, rows * d), f32s(41, rows * d), f32s(42, d));
    let (g, beta) = (f32s(43, d), f32s(44, d));
    let _pool = POOL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for threads_setting in [1, 2] {
        threads::set_num_threads(threads_setting).unwrap();
        let summed: Vec<f32> = x.iter().zip(&r).map(|(a, b)| a + b).collect();
        let (mut fused, mut separate) = (vec![0.0; rows * d], vec![0.0; rows * d]);
        layer_norm(&x, Some(&r), (&g, &beta), 1e-12, d, &mut fused);
        layer_norm(&summed, None, (&g, &beta), 1e-12, d, &mut separate);
        assert_eq!(fused, separate, "layer_norm, {threads_setting} threads");
        let biased: Vec<f32> = x.iter().enumerate().map(|(i, v)| v + b[i % d]).collect();
        gelu(&x, Some(&b), &mut fused);
        gelu(&biased, None, &mut separate);
        assert_eq!(fused, separate, "gelu, {threads_setting} threads");
    }
    assert_eq!(
        check_layer_norm(&[4, 3], &[3], &[3], Some(&[3, 4]), 1e-5)
            .unwrap_err()
            .to_string(),
        "x has shape (4, 3) and residual has shape (3, 4): they must have the same shape"
    );
    assert_eq!(
        check_gelu(&[4, 3], Some(&[4])).unwrap_err().to_string(),
        "bias has shape (4,); expected (3,) to match x of shape (4, 3)"
    );
    assert_eq!(
        check_gelu(&[], Some(&[1])).unwrap_err().to_string(),
        "x must have at least 1 dimension [..., d], got shape ()"
    );
}

#[test]
fn linear_with_few_rows_matches_a_plain_loop() {
    // MAX_ROWS + 1 rows cross from the few-rows kernel to gemm; k and n leave remainders after
    // the SIMD lanes and the 4×4 tiles; n = 130 splits over several tasks in the pool.
    use rust_core::kernels::dense::linear;
    use rust_core::linalg::skinny::MAX_ROWS;
    for m in [
        1usize,
        3,
        4,
        5,
        8,
        17,
        33,
        MAX_ROWS - 1,
        MAX_ROWS,
        MAX_ROWS + 1,
    ] {
        for k in [1usize, 7, 16, 17, 40] {
            for n in [1usize, 3, 4, 5, 130] {
                let x: Vec<f32> = lcg(m as u64, m * k).iter().map(|&v| v as f32).collect();
                let w: Vec<f32> = lcg(7 + k as u64, n * k).iter().map(|&v| v as f32).collect();
                let b: Vec<f32> = lcg(99, n).iter().map(|&v| v as f32).collect();
                let want: Vec<f64> = (0..m * n)
                    .map(|e| {
                        let (i, j) = (e / n, e % n);
                        let dot: f64 = (0..k)
                            .map(|p| f64::from(x[i * k + p]) * f64::from(w[j * k + p]))
                            .sum();
                        dot + f64::from(b[j])
                    })
                    .collect();
                let mut here = vec![f32::NAN; m * n];
                linear(&x, (&w, None), Some(&b), k, n, &mut here); // on this thread
                let mut pooled = vec![f32::NAN; m * n];
                threads::run(usize::MAX, || {
                    linear(&x, (&w, None), Some(&b), k, n, &mut pooled)
                })
                .unwrap();
                for got in [&here, &pooled] {
                    let got: Vec<f64> = got.iter().map(|&v| f64::from(v)).collect();
                    assert!(close(&got, &want, 1e-5), "m={m} k={k} n={n}");
                }
            }
        }
    }
}

#[test]
fn a_product_split_by_columns_over_threads_equals_one_call() {
    // `linear`'s big products: blocks of c's columns (rows of b) on the pool's threads, into an
    // output with a wider row stride; fewer columns than threads, uneven blocks, more blocks
    // than threads (800 columns), one thread, with and without a start (the bias) that each
    // block writes into its own columns before its product adds to them; short rows of b and
    // long ones (transposed first).
    use rust_core::linalg::mat::Mat;
    use rust_core::linalg::matmul::{matmul_abt, matmul_abt_threaded};
    // k = 515: rows of b 4120 bytes long, which are transposed before the product.
    let _pool = POOL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    for (n, k) in [1usize, 2, 3, 7, 130, 800]
        .into_iter()
        .flat_map(|n| [(n, 19), (n, 515)])
    {
        let (m, ldc) = (37, 810);
        let a = lcg(50, m * k);
        let b = lcg(51 + n as u64, n * k);
        let bias = lcg(70 + n as u64, n);
        let before = lcg(60, m * ldc); // what c holds: overwritten in columns 0 .. n only
        for with_bias in [false, true] {
            // One gemm call over all of c, from the bias in every row (or from 0).
            let first = if with_bias {
                bias.clone()
            } else {
                vec![0.0; n]
            };
            let mut want = before.clone();
            for row in want.chunks_mut(ldc) {
                row[..n].copy_from_slice(&first);
            }
            matmul_abt(
                Mat::new(&a, m, k, k),
                Mat::new(&b, n, k, k),
                1.0,
                &mut want,
                ldc,
                true,
            );
            for threads in [1usize, 2, 3, 5] {
                let mut got = before.clone();
                threads::run(usize::MAX, || {
                    let (a, b) = (Mat::new(&a, m, k, k), Mat::new(&b, n, k, k));
                    let start = with_bias.then_some(&bias[..]);
                    matmul_abt_threaded(a, b, None, &mut got, ldc, threads, start)
                })
                .unwrap();
                for i in 0..m {
                    for j in 0..ldc {
                        let (g, w) = (got[i * ldc + j], want[i * ldc + j]);
                        let at = format!("n={n} threads={threads} bias={with_bias} at ({i}, {j})");
                        if j >= n {
                            assert_eq!(g, before[i * ldc + j], "{at}: not c's column");
                        } else {
                            assert!((g - w).abs() < 1e-12, "{at}: {g} vs {w}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_matrix_view_must_fit_in_its_slice() {
    use rust_core::linalg::mat::Mat;
    let data = [0.0f32; 10];
    // Exactly fitting: the last row ends at the last element; a single row ignores the stride.
    assert!(Mat::try_new(&data, 2, 4, 6).is_ok());
    assert!(Mat::try_new(&data, 1, 10, 0).is_ok());
    assert!(Mat::try_new(&data, 1, 10, usize::MAX).is_ok());
    // Empty matrices fit anything, even an empty slice.
    assert!(Mat::try_new(&data[..0], 0, 1000, 1000).is_ok());
    assert!(Mat::try_new(&data[..0], usize::MAX, 0, usize::MAX).is_ok());
    // One element too far, a row too long, rows that overlap, and extents that overflow usize
    // (with wrapping arithmetic, (2^63 + 1) · 2 + 1 would be 3 and pass).
    for (rows, cols, stride) in [
        (2, 5, 6),
        (1, 11, 11),
        (3, 4, 3),
        (usize::MAX, 1, 2),
        ((1 << 63) + 2, 1, 2),
        (2, usize::MAX, usize::MAX),
    ] {
        let err = Mat::try_new(&data, rows, cols, stride).unwrap_err();
        assert!(
            matches!(err, CoreError::Value(_)),
            "{rows} × {cols} / {stride}: {err:?}"
        );
    }
    assert_eq!(
        Mat::try_new(&data, 2, 5, 6).unwrap_err().to_string(),
        "a 2 × 5 matrix with row stride 6 does not fit in 10 elements"
    );
}

#[test]
#[should_panic(expected = "does not fit")]
fn mat_new_refuses_a_view_past_the_end() {
    let data = [1.0f64; 12];
    let _ = rust_core::linalg::mat::Mat::new(&data, 4, 4, 4);
}

#[test]
#[should_panic(expected = "output")]
fn a_product_refuses_an_output_that_is_too_short() {
    use rust_core::linalg::mat::Mat;
    use rust_core::linalg::matmul::matmul_ab;
    let (a, b) = ([1.0f64; 6], [1.0f64; 6]);
    let mut c = [0.0f64; 8]; // 3 × 3 needs 9
    matmul_ab(
        Mat::new(&a, 3, 2, 2),
        Mat::new(&b, 2, 3, 3),
        1.0,
        &mut c,
        3,
        false,
    );
}

#[test]
fn products_read_strided_views() {
    use rust_core::linalg::mat::Mat;
    use rust_core::linalg::matmul::{matmul_ab, matmul_abt};
    // a: 2 × 3 in rows of 4 (one padding element, NaN, that must never be read).
    let a = [1.0, 2.0, 3.0, f64::NAN, 4.0, 5.0, 6.0];
    // b: 3 × 2 in rows of 3; bt: the same matrix transposed, 2 × 3 in rows of 5.
    let b = [1.0, 0.5, f64::NAN, -1.0, 2.0, f64::NAN, 0.0, 1.0];
    let bt = [1.0, -1.0, 0.0, f64::NAN, f64::NAN, 0.5, 2.0, 1.0];
    let want = [-1.0, 7.5, -1.0, 18.0]; // a · b, by hand
    let mut c = [f64::NAN; 4];
    matmul_ab(
        Mat::new(&a, 2, 3, 4),
        Mat::new(&b, 3, 2, 3),
        1.0,
        &mut c,
        2,
        false,
    );
    assert_eq!(c, want);
    let mut c = [f64::NAN; 4];
    matmul_abt(
        Mat::new(&a, 2, 3, 4),
        Mat::new(&bt, 2, 3, 5),
        1.0,
        &mut c,
        2,
        false,
    );
    assert_eq!(c, want);
}

#[test]
fn axes_resolve_as_numpy_counts_them() {
    use rust_core::kernels::softmax::resolve_axis;
    assert_eq!(resolve_axis(-1, &[2, 3]), Ok(1));
    assert_eq!(resolve_axis(-2, &[2, 3]), Ok(0));
    assert_eq!(resolve_axis(1, &[2, 3]), Ok(1));
    for (axis, shape) in [(2, &[2, 3][..]), (-3, &[2, 3]), (0, &[]), (-1, &[])] {
        let err = resolve_axis(axis, shape).unwrap_err();
        assert!(matches!(err, CoreError::Value(_)), "{axis} {shape:?}");
    }
    assert_eq!(
        resolve_axis(i64::MIN, &[4]).unwrap_err().to_string(),
        "axis -9223372036854775808 is out of bounds for x of shape (4,)"
    );
    assert_eq!(
        resolve_axis(i64::MAX, &[]).unwrap_err().to_string(),
        "axis 9223372036854775807 is out of bounds for x of shape ()"
    );
}

/// The slices of `x` (C order, `shape`) along `axis`, each normalised by `softmax_in_place`, in place.
fn softmax_slices_by_hand(x: &mut [f64], shape: &[usize], axis: usize) {
    let len = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let outer: usize = shape[..axis].iter().product();
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * len + j) * inner + i;
            let mut slice: Vec<f64> = (0..len).map(|j| x[at(j)]).collect();
            softmax_in_place(&mut slice);
            for (j, v) in slice.into_iter().enumerate() {
                x[at(j)] = v;
            }
        }
    }
}

#[test]
fn softmax_along_any_axis_equals_each_slice_normalised() {
    use rust_core::kernels::softmax::softmax_along;
    // Small, with dimensions of 1 and 0, and big enough for the pool (32 per element: 2^22 from
    // 131,072 elements).
    let shapes: [&[usize]; 6] = [
        &[3, 1, 4, 2],
        &[5],
        &[2, 0, 3],
        &[1, 7, 1],
        &[2, 150, 7, 64],
        &[600, 260],
    ];
    let _pool = POOL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    threads::set_num_threads(2).unwrap();
    for shape in shapes {
        let len: usize = shape.iter().product();
        let mut x: Vec<f64> = lcg(len as u64, len).iter().map(|v| v * 40.0).collect();
        if len > 10 {
            x[3] = f64::NAN; // poisons its slices, and only those
            x[len - 1] = f64::NEG_INFINITY;
        }
        for axis in 0..shape.len() {
            let mut want = x.clone();
            softmax_slices_by_hand(&mut want, shape, axis);
            let mut here = vec![0.0; len];
            softmax_along(&x, &mut here, shape, axis).unwrap();
            let mut pooled = vec![0.0; len];
            threads::run(usize::MAX, || softmax_along(&x, &mut pooled, shape, axis))
                .unwrap()
                .unwrap();
            for got in [&here, &pooled] {
                let same = got
                    .iter()
                    .zip(&want)
                    .all(|(a, b)| a == b || a.is_nan() && b.is_nan());
                assert!(same, "shape {shape:?} axis {axis}");
            }
        }
    }
}

#[test]
fn e23_counts_each_result_of_attention_in_order() {
    use rust_core::kernels::attention_inputs::Results;
    let dims = check_shapes(&[2, 3, 4], &[2, 5, 4], Some(&[2, 5, 6])).unwrap();
    assert_eq!(
        Results::Output.shapes(&dims),
        vec![("the result", vec![2, 3, 6])]
    );
    assert_eq!(
        Results::Weights.shapes(&dims),
        vec![("the result", vec![2, 3, 5])]
    );
    assert_eq!(
        Results::Both.shapes(&dims),
        vec![
            ("the result", vec![2, 3, 6]),
            ("the weights", vec![2, 3, 5])
        ]
    );
}

#[test]
fn rms_norm_rope_and_swiglu_match_plain_loops_on_one_and_many_threads() {
    use rust_core::kernels::dense::{check_rms_norm, check_swiglu, rms_norm, silu};
    use rust_core::kernels::rope::{angles, check_positions, check_rope, rope};
    use rust_core::linalg::rows::{Layout, Rows};
    let _pool = POOL_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // d = 2 (one pair) and d = 64; odd n; 7 heads; big enough (7·301·64) to split on the pool.
    for &(heads, n, d) in &[(1usize, 1usize, 2usize), (3, 5, 2), (7, 301, 64)] {
        let x = lcg(40 + d as u64, heads * n * d);
        let w = lcg(41, d);
        let positions: Vec<u32> = (0..n as u32).map(|t| t * 37 % 8193).collect();
        let dims = check_rope(&[heads, n, d], &[n], 100000.0).unwrap();
        let table = angles(&positions, d, 100000.0);
        let mut want_rope = vec![0.0; x.len()];
        let mut want_norm = vec![0.0; x.len()];
        for (r, (row, out)) in x.chunks(d).zip(want_rope.chunks_mut(d)).enumerate() {
            let p = f64::from(positions[r % n]);
            for i in 0..d / 2 {
                let theta = p * 100000f64.powf(-((2 * i) as f64) / d as f64);
                let (a, b) = (row[2 * i], row[2 * i + 1]);
                out[2 * i] = a * theta.cos() - b * theta.sin();
                out[2 * i + 1] = a * theta.sin() + b * theta.cos();
            }
            let ms = row.iter().map(|v| v * v).sum::<f64>() / d as f64;
            for i in 0..d {
                want_norm[r * d + i] = row[i] / (ms + 1e-5).sqrt() * w[i];
            }
        }
        for threads in [1, 3] {
            threads::set_num_threads(threads).unwrap();
            let (mut y_rope, mut y_norm, mut y_glu) = (
                vec![f64::NAN; x.len()],
                vec![f64::NAN; x.len()],
                vec![f64::NAN; x.len()],
            );
            let rows = Rows::contiguous(&x, d);
            threads::run(usize::MAX, || {
                rope(&rows, &table, dims, &mut y_rope);
                rms_norm(&x, &w, 1e-5, d, &mut y_norm);
                silu(&rows, Some(&rows), &mut y_glu);
            })
            .unwrap();
            // The same rows as the right half of a [heads, n, 2d] array (a column block, read in
            // place): the same results, bit for bit.
            let wide: Vec<f64> = x
                .chunks(d)
                .flat_map(|row| row.iter().map(|v| -v).chain(row.iter().copied()))
                .collect();
            let layout = Layout::strided(&[heads], &[n * 2 * d], 2 * d);
            let block = Rows::strided(&wide[d..], layout, n, d);
            let (mut b_rope, mut b_glu) = (vec![f64::NAN; x.len()], vec![f64::NAN; x.len()]);
            threads::run(usize::MAX, || {
                rope(&block, &table, dims, &mut b_rope);
                silu(&block, Some(&rows), &mut b_glu);
            })
            .unwrap();
            assert_eq!(b_rope, y_rope, "rope of a column block {heads}×{n}×{d}");
            assert_eq!(b_glu, y_glu, "swiglu of a column block {heads}×{n}×{d}");
            assert!(
                close(&y_rope, &want_rope, 1e-12),
                "rope {heads}×{n}×{d}, {threads} threads"
            );
            assert!(
                close(&y_norm, &want_norm, 1e-12),
                "rms_norm {heads}×{n}×{d}"
            );
            let want_glu: Vec<f64> = x.iter().map(|&v| v / (1.0 + (-v).exp()) * v).collect();
            assert!(close(&y_glu, &want_glu, 1e-15), "swiglu {heads}×{n}×{d}");
        }
    }
    assert_eq!(
        check_rope(&[3, 5], &[3], 1e4).unwrap_err().to_string(),
        "x has shape (3, 5): its last dimension (d) must be even, as rope rotates pairs"
    );
    assert_eq!(
        check_rope(&[3, 4], &[2], 1e4).unwrap_err().to_string(),
        "positions has shape (2,); expected (3,) to match x of shape (3, 4)"
    );
    assert!(check_rope(&[3, 4], &[3], 0.0).is_err() && check_rope(&[4], &[4], 1e4).is_err());
    assert_eq!(
        check_positions(&[0i64, 3, -2, -9]).unwrap_err().to_string(),
        "positions must be >= 0, got -2"
    );
    assert!(check_positions(&[u64::MAX]).is_ok());
    assert!(check_rms_norm(&[2, 3], &[2], 1e-5).is_err() && check_rms_norm(&[], &[], 0.0).is_err());
    assert!(check_swiglu(&[2, 3], &[2, 3]).is_ok() && check_swiglu(&[2, 3], &[3]).is_err());
}

#[test]
fn grouped_query_attention_reads_kv_head_j_over_g() {
    // q [2, 6, n, d_k] against k, v [2, 2, m, d]: query head j reads key/value head j / 3.
    let (n, m, d_k, d_v) = (5, 7, 4, 3);
    let dims = check_shapes(&[2, 6, n, d_k], &[2, 2, m, d_k], Some(&[2, 2, m, d_v])).unwrap();
    assert_eq!((dims.batch, dims.group), (12, 3));
    let q = lcg(50, 12 * n * d_k);
    let k = lcg(51, 4 * m * d_k);
    let v = lcg(52, 4 * m * d_v);
    // The same heads written out: k_full[b] = k[b / 3], as Hugging Face's repeat_kv builds it.
    let repeat = |a: &[f64], len: usize| -> Vec<f64> {
        (0..12)
            .flat_map(|b| a[(b / 3) * len..(b / 3 + 1) * len].to_vec())
            .collect()
    };
    let (k_full, v_full) = (repeat(&k, m * d_k), repeat(&v, m * d_v));
    let full = check_shapes(&[2, 6, n, d_k], &[2, 6, m, d_k], Some(&[2, 6, m, d_v])).unwrap();
    for causal in [false, true] {
        let opt = Options {
            mask: None,
            causal,
            scale: 0.5,
        };
        assert_eq!(
            run(&q, &k, &v, &dims, &opt),
            run(&q, &k_full, &v_full, &full, &opt)
        );
    }
    let e = check_shapes(&[9, 2, 8], &[4, 3, 8], None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "q has shape (9, 2, 8) and k has shape (4, 3, 8): the number of query heads (axis -3, 9) \
         must be a multiple of the number of key/value heads (4)"
    );
    let e = check_shapes(&[2, 3, 2, 8], &[2, 3, 5, 8], Some(&[2, 1, 5, 8])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "k has shape (2, 3, 5, 8) and v has shape (2, 1, 5, 8): leading dimensions must be equal"
    );
    // 2-D q and k have no heads axis: nothing is grouped.
    assert!(check_shapes(&[2, 8], &[1, 5, 8], None).is_err());
}

#[test]
fn quantized_shapes_and_bytes_are_checked() {
    use rust_core::kernels::quant::{check_bytes, check_shape, dequantize, Kind};
    assert_eq!(check_shape(&[3, 64], Some(2)).unwrap(), vec![3, 64]);
    assert_eq!(
        check_shape(&[3, 40], Some(2)).unwrap_err().to_string(),
        "shape (3, 40) has a last dimension of 40, which is not a multiple of 32 (the values in a block)"
    );
    assert_eq!(
        check_shape(&[-1, 32], None).unwrap_err().to_string(),
        "shape must not have negative dimensions, got (-1, 32)"
    );
    assert!(check_shape(&[], None).is_err() && check_shape(&[64], Some(2)).is_err());
    assert_eq!(check_bytes(Kind::Q4_1, &[3, 64], 120).unwrap(), 120);
    assert_eq!(
        check_bytes(Kind::Q8_0, &[3, 64], 120)
            .unwrap_err()
            .to_string(),
        "data has 120 bytes, but a q8_0 array of shape (3, 64) takes 204"
    );
    assert_eq!(Kind::parse("q8_0"), Some(Kind::Q8_0));
    assert_eq!(Kind::parse("Q8_0"), None);
    // Two Q8_0 blocks: d = 1 (f16 0x3C00) with q = j − 16, then d = −2 with q = 1.
    let mut data = vec![0x00, 0x3C];
    data.extend((0..32).map(|j| (j as i8 - 16) as u8));
    data.extend([0x00, 0xC0]);
    data.extend([1u8; 32]);
    let mut out = vec![0.0f32; 64];
    dequantize(Kind::Q8_0, &data, &mut out);
    assert!((0..32).all(|j| out[j] == j as f32 - 16.0) && out[32..].iter().all(|&v| v == -2.0));
}

// --- skipgram_sgd -----------------------------------------------------------------------------

#[test]
fn skipgram_first_step_from_zero_outputs_costs_ln2_per_target_and_leaves_e() {
    use rust_core::kernels::skipgram::{check_skipgram, skipgram_sgd};
    // V = 3, d = 2; U = 0 makes every score 0: each of the 1 + k targets costs ln 2, and E's
    // gradient (slope · u) is 0, while U moves by −lr · slope · e_c with slope −1/2 or +1/2.
    let mut e = vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
    let mut u = vec![0.0f64; 6];
    let pairs: Vec<i64> = vec![0, 1, 2, 2, 0, 1]; // rows (c, o, n): (0, 1, 2), (2, 0, 1)
    let dims = check_skipgram(&[3, 2], &[3, 2], &[2, 3], &[1], 2).unwrap();
    let mut losses = vec![0.0f64; 1];
    skipgram_sgd(&mut e, &mut u, &pairs, &[0.1], dims, &mut losses);
    assert!((losses[0] - 4.0 * std::f64::consts::LN_2).abs() < 1e-12); // 2 rows × (1 + k = 2) targets
    assert_eq!(e, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    // u_0: context of row 2 (slope −1/2 · e_2); u_1: context of row 1 (−1/2 · e_0) and negative
    // of row 2 (+1/2 · e_2); u_2: negative of row 1 (+1/2 · e_0). U −= 0.1 · gradient.
    let expect = [0.25, 0.3, 0.05 - 0.25, 0.1 - 0.3, -0.05, -0.1];
    for (got, want) in u.iter().zip(expect) {
        assert!((got - want).abs() < 1e-12, "{u:?}");
    }
}

#[test]
fn skipgram_shapes_are_checked_in_order() {
    use rust_core::kernels::skipgram::check_skipgram;
    let msg = |r: rust_core::error::Result<_>| r.unwrap_err().to_string();
    assert!(msg(check_skipgram(&[3, 2], &[3, 1], &[5, 4], &[3], 2)).starts_with("output_table"));
    assert!(msg(check_skipgram(&[3, 2], &[3, 2], &[5, 1], &[3], 2)).starts_with("pairs must"));
    assert!(msg(check_skipgram(&[3, 2], &[3, 2], &[5, 4], &[3], 0)).starts_with("batch_size"));
    assert!(msg(check_skipgram(&[3, 2], &[3, 2], &[5, 4], &[2], 2)).contains("expected (3,)"));
    assert_eq!(
        check_skipgram(&[3, 2], &[3, 2], &[5, 4], &[3], 2)
            .unwrap()
            .steps(),
        3
    );
}
