//! The training kernels without Python: each against a plain float64 reference or a central
//! finite difference of its forward, plus the checks' messages.

use rust_core::error::CoreError;
use rust_core::kernels::embedding::check_ids;
use rust_core::kernels::train::adamw::{
    adamw_step, check_adamw, check_adamw_shapes, check_separate, AdamW,
};
use rust_core::kernels::train::dense_backward::{
    check_layer_norm_backward, check_linear_backward, gelu_backward, layer_norm_backward,
    linear_backward, relu_backward, LinearDims,
};
use rust_core::kernels::train::embedding_backward::{check_embedding_backward, embedding_backward};
use rust_core::kernels::train::loss::{check_cross_entropy, check_targets, cross_entropy};
use rust_core::runtime::threads;

mod support;
use support::{close, lcg};

fn value_msg(e: CoreError) -> String {
    match e {
        CoreError::Value(m) => m,
        other => panic!("expected a ValueError, got {other:?}"),
    }
}

fn to_f32(v: &[f64]) -> Vec<f32> {
    v.iter().map(|&x| x as f32).collect()
}

fn to_f64(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

// ---------------------------------------------------------------------------------------------
// linear_backward

/// (grad_x, grad_w, grad_b) in float64 by the definitions.
fn linear_backward_reference(
    x: &[f64],
    w: &[f64],
    gy: &[f64],
    rows: usize,
    d_in: usize,
    d_out: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let mut gx = vec![0.0; rows * d_in];
    let mut gw = vec![0.0; d_out * d_in];
    let mut gb = vec![0.0; d_out];
    for r in 0..rows {
        for o in 0..d_out {
            let g = gy[r * d_out + o];
            gb[o] += g;
            for i in 0..d_in {
                gx[r * d_in + i] += g * w[o * d_in + i];
                gw[o * d_in + i] += g * x[r * d_in + i];
            }
        }
    }
    (gx, gw, gb)
}

fn run_linear_backward<T: rust_core::linalg::transpose::Transpose>(
    x: &[T],
    w: &[T],
    gy: &[T],
    dims: LinearDims,
    bias: bool,
) -> (Vec<T>, Vec<T>, Vec<T>) {
    let mut gx = vec![T::nan(); dims.rows * dims.d_in];
    let mut gw = vec![T::nan(); dims.d_out * dims.d_in];
    let mut gb = vec![T::nan(); dims.d_out];
    let work = rust_core::kernels::train::dense_backward::linear_backward_work(dims);
    threads::run(work, || {
        linear_backward(
            x,
            w,
            gy,
            dims,
            &mut gx,
            &mut gw,
            bias.then_some(&mut gb[..]),
        )
    })
    .unwrap()
    .unwrap();
    (gx, gw, gb)
}

#[test]
fn linear_backward_matches_the_definitions() {
    // Small, empty and big enough for the pool (2·1024·256·256 multiply-adds).
    for (rows, d_in, d_out) in [
        (3, 4, 5),
        (1, 1, 1),
        (0, 3, 2),
        (4, 0, 3),
        (4, 3, 0),
        (1024, 256, 256),
        (37, 130, 70),
    ] {
        let x = lcg(1, rows * d_in);
        let w = lcg(2, d_out * d_in);
        let gy = lcg(3, rows * d_out);
        let dims = LinearDims { rows, d_in, d_out };
        let (rx, rw, rb) = linear_backward_reference(&x, &w, &gy, rows, d_in, d_out);
        let (gx, gw, gb) = run_linear_backward(&x, &w, &gy, dims, true);
        let tol = 1e-12 * (rows.max(d_out) as f64);
        assert!(close(&gx, &rx, tol), "f64 grad_x {rows}x{d_in}x{d_out}");
        assert!(close(&gw, &rw, tol), "f64 grad_w {rows}x{d_in}x{d_out}");
        assert!(close(&gb, &rb, tol), "f64 grad_b {rows}x{d_in}x{d_out}");
        let (gx, gw, gb) = run_linear_backward(&to_f32(&x), &to_f32(&w), &to_f32(&gy), dims, false);
        let tol = 1e-5 * (rows.max(d_out) as f64).sqrt().max(1.0);
        assert!(
            close(&to_f64(&gx), &rx, tol),
            "f32 grad_x {rows}x{d_in}x{d_out}"
        );
        assert!(
            close(&to_f64(&gw), &rw, tol),
            "f32 grad_w {rows}x{d_in}x{d_out}"
        );
        assert!(
            gb.iter().all(|v| v.is_nan()),
            "grad_b untouched without bias"
        );
    }
}

#[test]
fn linear_backward_checks_shapes_in_order() {
    assert_eq!(
        check_linear_backward(&[2, 3, 4], &[5, 4], &[2, 3, 5]).unwrap(),
        LinearDims {
            rows: 6,
            d_in: 4,
            d_out: 5
        }
    );
    let msg = |x: &[usize], w: &[usize], g: &[usize]| {
        value_msg(check_linear_backward(x, w, g).unwrap_err())
    };
    assert_eq!(
        msg(&[], &[5, 4], &[5]),
        "x must have at least 1 dimension [..., d], got shape ()"
    );
    assert_eq!(
        msg(&[4], &[4], &[5]),
        "weight must be 2-D [out, in], got shape (4,)"
    );
    assert_eq!(
        msg(&[2, 3], &[5, 4], &[2, 5]),
        "x has shape (2, 3) and weight has shape (5, 4): x's last dimension must equal weight's second (in)"
    );
    assert_eq!(
        msg(&[2, 4], &[5, 4], &[5, 2]),
        "grad_y has shape (5, 2); expected (2, 5), the shape of the forward's output"
    );
    assert_eq!(
        msg(&[4], &[5, 4], &[1, 5]),
        "grad_y has shape (1, 5); expected (5,), the shape of the forward's output"
    );
}

// ---------------------------------------------------------------------------------------------
// layer_norm_backward

/// Σ grad_y · layer_norm(x, gamma, beta) in float64, the scalar the finite differences vary.
fn layer_norm_loss(x: &[f64], gamma: &[f64], beta: &[f64], gy: &[f64], d: usize, eps: f64) -> f64 {
    let mut total = 0.0;
    for (r, row) in x.chunks(d).enumerate() {
        let mean = row.iter().sum::<f64>() / d as f64;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d as f64;
        let rstd = 1.0 / (var + eps).sqrt();
        for j in 0..d {
            total += gy[r * d + j] * ((row[j] - mean) * rstd * gamma[j] + beta[j]);
        }
    }
    total
}

/// Central differences of `f` at `v` for every element.
fn numeric_grad(v: &[f64], h: f64, f: &dyn Fn(&[f64]) -> f64) -> Vec<f64> {
    let mut v = v.to_vec();
    (0..v.len())
        .map(|i| {
            let old = v[i];
            v[i] = old + h;
            let up = f(&v);
            v[i] = old - h;
            let down = f(&v);
            v[i] = old;
            (up - down) / (2.0 * h)
        })
        .collect()
}

#[test]
fn layer_norm_backward_matches_finite_differences() {
    // 70 rows: three parts of 32 rows, the last one short.
    for (rows, d) in [(3, 5), (70, 7), (1, 1)] {
        let eps = 1e-5;
        let x: Vec<f64> = lcg(10, rows * d).iter().map(|v| 3.0 * v + 1.0).collect();
        let gamma: Vec<f64> = lcg(11, d).iter().map(|v| v + 1.5).collect();
        let beta = lcg(12, d);
        let gy = lcg(13, rows * d);
        let mut gx = vec![f64::NAN; rows * d];
        let (mut gg, mut gb) = (vec![f64::NAN; d], vec![f64::NAN; d]);
        layer_norm_backward(&x, &gamma, &gy, eps, d, &mut gx, &mut gg, &mut gb).unwrap();
        let h = 1e-6;
        let want_x = numeric_grad(&x, h, &|x| layer_norm_loss(x, &gamma, &beta, &gy, d, eps));
        let want_g = numeric_grad(&gamma, h, &|g| layer_norm_loss(&x, g, &beta, &gy, d, eps));
        let want_b = numeric_grad(&beta, h, &|b| layer_norm_loss(&x, &gamma, b, &gy, d, eps));
        assert!(
            close(&gx, &want_x, 1e-6),
            "grad_x {rows}x{d}: {gx:?} vs {want_x:?}"
        );
        assert!(close(&gg, &want_g, 1e-6), "grad_gamma {rows}x{d}");
        assert!(close(&gb, &want_b, 1e-6), "grad_beta {rows}x{d}");
        // float32 against the float64 result.
        let mut gx32 = vec![f32::NAN; rows * d];
        let (mut gg32, mut gb32) = (vec![f32::NAN; d], vec![f32::NAN; d]);
        layer_norm_backward(
            &to_f32(&x),
            &to_f32(&gamma),
            &to_f32(&gy),
            eps as f32,
            d,
            &mut gx32,
            &mut gg32,
            &mut gb32,
        )
        .unwrap();
        assert!(close(&to_f64(&gx32), &gx, 2e-4), "f32 grad_x {rows}x{d}");
        assert!(
            close(&to_f64(&gg32), &gg, 2e-4),
            "f32 grad_gamma {rows}x{d}"
        );
        assert!(close(&to_f64(&gb32), &gb, 2e-4), "f32 grad_beta {rows}x{d}");
    }
    // No rows: zero parameter gradients.
    let (mut gg, mut gb) = (vec![f64::NAN; 3], vec![f64::NAN; 3]);
    layer_norm_backward(&[], &[1.0; 3], &[], 1e-5, 3, &mut [], &mut gg, &mut gb).unwrap();
    assert_eq!((gg, gb), (vec![0.0; 3], vec![0.0; 3]));
}

#[test]
fn layer_norm_backward_checks_in_order() {
    assert_eq!(
        check_layer_norm_backward(&[2, 3], &[3], &[2, 3], 0.0).unwrap(),
        3
    );
    let msg = |x: &[usize], g: &[usize], gy: &[usize], eps: f64| {
        value_msg(check_layer_norm_backward(x, g, gy, eps).unwrap_err())
    };
    assert_eq!(
        msg(&[], &[3], &[2], f64::NAN),
        "x must have at least 1 dimension [..., d], got shape ()"
    );
    assert_eq!(
        msg(&[2, 3], &[4], &[2], f64::NAN),
        "gamma has shape (4,); expected (3,) to match x of shape (2, 3)"
    );
    assert_eq!(
        msg(&[2, 3], &[3], &[3, 2], f64::NAN),
        "grad_y has shape (3, 2); expected (2, 3), the shape of the forward's output"
    );
    assert_eq!(
        msg(&[2, 3], &[3], &[2, 3], -1e-5),
        "eps must be a finite number >= 0, got -1e-05"
    );
    assert_eq!(
        msg(&[2, 3], &[3], &[2, 3], f64::INFINITY),
        "eps must be a finite number >= 0, got inf"
    );
}

// ---------------------------------------------------------------------------------------------
// gelu_backward, relu_backward

fn gelu64(x: f64) -> f64 {
    0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2))
}

#[test]
fn gelu_backward_matches_finite_differences() {
    let x: Vec<f64> = (-800..=800).map(|i| i as f64 / 100.0).collect();
    let gy: Vec<f64> = lcg(20, x.len()).iter().map(|v| v + 2.0).collect();
    let mut gx = vec![f64::NAN; x.len()];
    gelu_backward(&x, &gy, &mut gx);
    let h = 1e-5;
    let want: Vec<f64> = x
        .iter()
        .zip(&gy)
        .map(|(&v, &g)| g * (gelu64(v + h) - gelu64(v - h)) / (2.0 * h))
        .collect();
    assert!(close(&gx, &want, 1e-8));
    let mut gx32 = vec![f32::NAN; x.len()];
    gelu_backward(&to_f32(&x), &to_f32(&gy), &mut gx32);
    assert!(close(&to_f64(&gx32), &gx, 3e-6));
    // Big enough for the pool's chunks.
    let n = 1 << 18;
    let x = to_f32(&lcg(21, n));
    let gy = to_f32(&lcg(22, n));
    let mut serial = vec![0.0f32; n];
    gelu_backward(&x, &gy, &mut serial);
    let mut pooled = vec![0.0f32; n];
    threads::run(usize::MAX, || gelu_backward(&x, &gy, &mut pooled)).unwrap();
    assert_eq!(serial, pooled);
}

#[test]
fn relu_backward_passes_the_gradient_where_x_is_positive() {
    let x = [
        -1.0f64,
        0.0,
        -0.0,
        1e-30,
        2.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    let gy = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    let mut gx = [f64::NAN; 8];
    relu_backward(&x, &gy, &mut gx);
    assert_eq!(gx, [0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 7.0, 0.0]);
    let mut gx32 = [f32::NAN; 8];
    relu_backward(&to_f32(&x), &to_f32(&gy), &mut gx32);
    assert_eq!(to_f64(&gx32), gx.to_vec());
}

// ---------------------------------------------------------------------------------------------
// cross_entropy

/// (loss, grad) in float64 by the definitions.
fn cross_entropy_reference(
    logits: &[f64],
    targets: &[i64],
    c: usize,
    ignore: i64,
) -> (f64, Vec<f64>) {
    let count = targets.iter().filter(|&&t| t != ignore).count();
    let mut grad = vec![0.0; logits.len()];
    if count == 0 {
        return (f64::NAN, grad);
    }
    let mut loss = 0.0;
    for (r, &t) in targets.iter().enumerate() {
        if t == ignore {
            continue;
        }
        let row = &logits[r * c..(r + 1) * c];
        let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = row.iter().map(|v| (v - max).exp()).sum();
        loss += max + s.ln() - row[t as usize];
        for j in 0..c {
            let onehot = if j == t as usize { 1.0 } else { 0.0 };
            grad[r * c + j] = ((row[j] - max).exp() / s - onehot) / count as f64;
        }
    }
    (loss / count as f64, grad)
}

#[test]
fn cross_entropy_matches_the_reference_and_finite_differences() {
    let (n, c) = (70, 9);
    let logits: Vec<f64> = lcg(30, n * c).iter().map(|v| 5.0 * v).collect();
    let targets: Vec<i64> = (0..n as i64)
        .map(|i| if i % 7 == 3 { -100 } else { (i * 5) % c as i64 })
        .collect();
    let (want_loss, want_grad) = cross_entropy_reference(&logits, &targets, c, -100);
    let mut grad = vec![f64::NAN; n * c];
    let loss = cross_entropy(&logits, &targets, c, -100, &mut grad).unwrap();
    assert!((loss - want_loss).abs() < 1e-13, "{loss} vs {want_loss}");
    assert!(close(&grad, &want_grad, 1e-15));
    // Ignored rows have zero gradient.
    assert!(grad[3 * c..4 * c].iter().all(|&g| g == 0.0));
    // The gradient is the loss's derivative.
    let numeric = numeric_grad(&logits, 1e-6, &|l| {
        cross_entropy_reference(l, &targets, c, -100).0
    });
    assert!(close(&grad, &numeric, 1e-8));
    // float32, on the team and serially alike.
    let mut grad32 = vec![f32::NAN; n * c];
    let loss32 = cross_entropy(&to_f32(&logits), &targets, c, -100, &mut grad32).unwrap();
    assert!((loss32 - want_loss).abs() < 1e-5);
    assert!(close(&to_f64(&grad32), &want_grad, 1e-7));
}

#[test]
fn cross_entropy_ignore_index_and_nothing_counted() {
    // A custom ignore_index, which may also be a valid class elsewhere.
    let logits = [1.0f64, 2.0, 3.0, 0.5, 0.5, 0.5];
    let targets = [2u8, 1];
    let mut grad = [f64::NAN; 6];
    let loss = cross_entropy(&logits, &targets, 3, 1, &mut grad).unwrap();
    let (want, want_grad) = cross_entropy_reference(&logits, &[2, 1], 3, 1);
    assert!((loss - want).abs() < 1e-15);
    assert_eq!(&grad[3..], &[0.0; 3]);
    assert!(close(&grad, &want_grad, 1e-15));
    // Every row ignored: nan and zeros.
    let mut grad = [f64::NAN; 6];
    let loss = cross_entropy(&logits, &[-100i32, -100], 3, -100, &mut grad).unwrap();
    assert!(loss.is_nan());
    assert_eq!(grad, [0.0; 6]);
    // No rows at all.
    let loss = cross_entropy::<f32, i64>(&[], &[], 4, -100, &mut []).unwrap();
    assert!(loss.is_nan());
}

#[test]
fn cross_entropy_checks() {
    assert_eq!(check_cross_entropy(&[3, 4], &[3]).unwrap(), (3, 4));
    assert_eq!(
        value_msg(check_cross_entropy(&[3], &[3]).unwrap_err()),
        "logits must be 2-D [N, C], got shape (3,)"
    );
    assert_eq!(
        value_msg(check_cross_entropy(&[3, 4], &[3, 1]).unwrap_err()),
        "targets has shape (3, 1); expected (3,) to match logits of shape (3, 4)"
    );
    assert!(check_targets(&[0i64, 3, -100], 4, -100).is_ok());
    assert_eq!(
        check_targets(&[0i64, -1, 4], 4, -100).unwrap_err(),
        CoreError::Index("target -1 is out of range for 4 classes".into())
    );
    assert_eq!(
        check_targets(&[u64::MAX], 4, -100).unwrap_err(),
        CoreError::Index("target 18446744073709551615 is out of range for 4 classes".into())
    );
    // -100 is out of range once it is not the ignored value.
    assert_eq!(
        check_targets(&[-100i8], 4, 0).unwrap_err(),
        CoreError::Index("target -100 is out of range for 4 classes".into())
    );
}

// ---------------------------------------------------------------------------------------------
// embedding_backward

#[test]
fn embedding_backward_accumulates_repeated_ids() {
    let (v, d) = (5, 3);
    let ids = [1u16, 4, 1, 0, 1];
    let grad_out = lcg(40, ids.len() * d);
    let mut table = vec![0.0f64; v * d];
    embedding_backward(&ids, &grad_out, d, &mut table);
    let mut want = vec![0.0f64; v * d];
    for (i, &id) in ids.iter().enumerate() {
        for j in 0..d {
            want[id as usize * d + j] += grad_out[i * d + j];
        }
    }
    assert_eq!(table, want);
    assert_eq!(&table[2 * d..4 * d], &[0.0; 6]);
    let row1: f64 = grad_out[0] + grad_out[2 * d] + grad_out[4 * d];
    assert_eq!(table[d], row1);
    // A 0-d ids array: one row.
    let mut table = vec![0.0f32; 4];
    embedding_backward(&[1i64], &[2.0f32, 3.0], 2, &mut table);
    assert_eq!(table, [0.0, 0.0, 2.0, 3.0]);
}

#[test]
fn embedding_backward_checks() {
    assert_eq!(check_embedding_backward(&[2, 3, 4], &[2, 3]).unwrap(), 4);
    assert_eq!(check_embedding_backward(&[4], &[]).unwrap(), 4);
    assert_eq!(
        value_msg(check_embedding_backward(&[2, 4], &[2, 3]).unwrap_err()),
        "grad_out has shape (2, 4) and ids has shape (2, 3): grad_out must be [*ids.shape, d]"
    );
    assert_eq!(
        value_msg(check_embedding_backward(&[], &[]).unwrap_err()),
        "grad_out has shape () and ids has shape (): grad_out must be [*ids.shape, d]"
    );
    assert_eq!(
        check_ids(&[0i32, 7], 5).unwrap_err(),
        CoreError::Index("id 7 is out of range for a vocabulary of size 5".into())
    );
}

// ---------------------------------------------------------------------------------------------
// adamw_step

/// The spec's formula, one element at a time, the scalars in float64 cast to T.
fn adamw_scalar_loop<T: rust_core::real::Real>(
    p: &mut [T],
    g: &[T],
    m: &mut [T],
    v: &mut [T],
    h: &AdamW,
) {
    let t = T::from_f64_lossy;
    let bc1 = 1.0 - h.beta1.powf(h.step as f64);
    let bc2 = 1.0 - h.beta2.powf(h.step as f64);
    for i in 0..p.len() {
        p[i] = p[i] * t(1.0 - h.lr * h.weight_decay);
        m[i] = t(h.beta1) * m[i] + t(1.0 - h.beta1) * g[i];
        v[i] = t(h.beta2) * v[i] + t(1.0 - h.beta2) * g[i] * g[i];
        p[i] = p[i] - t(h.lr / bc1) * m[i] / (v[i].sqrt() / t(bc2.sqrt()) + t(h.eps));
    }
}

fn adamw_matches_scalar_loop<T: rust_core::real::Real>(n: usize) {
    let cast = |v: Vec<f64>| -> Vec<T> { v.into_iter().map(T::from_f64_lossy).collect() };
    let mut p = cast(lcg(50, n));
    let (mut m, mut v) = (vec![T::zero(); n], vec![T::zero(); n]);
    let (mut p2, mut m2, mut v2) = (p.clone(), m.clone(), v.clone());
    for step in 1..=5 {
        let g = cast(lcg(60 + step as u64, n));
        let h = AdamW {
            step,
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.01,
        };
        check_adamw(&h).unwrap();
        threads::run(usize::MAX, || adamw_step(&mut p, &g, &mut m, &mut v, &h)).unwrap();
        adamw_scalar_loop(&mut p2, &g, &mut m2, &mut v2, &h);
        assert_eq!(p, p2, "param after step {step}");
        assert_eq!(m, m2, "exp_avg after step {step}");
        assert_eq!(v, v2, "exp_avg_sq after step {step}");
    }
}

#[test]
fn adamw_over_a_few_steps_is_the_scalar_loop_bit_for_bit() {
    adamw_matches_scalar_loop::<f32>(1000);
    adamw_matches_scalar_loop::<f64>(1000);
    // Big enough to be split over the pool.
    adamw_matches_scalar_loop::<f32>(300_000);
}

#[test]
fn adamw_first_step_is_signed_lr() {
    // Step 1 without decay: m̂ = g, v̂ = g², so param moves by lr · g / (|g| + eps) ≈ lr · sign(g).
    let (mut p, g) = (vec![1.0f64, 1.0], vec![0.5, -2.0]);
    let (mut m, mut v) = (vec![0.0; 2], vec![0.0; 2]);
    let h = AdamW {
        step: 1,
        lr: 0.1,
        beta1: 0.9,
        beta2: 0.999,
        eps: 0.0,
        weight_decay: 0.0,
    };
    adamw_step(&mut p, &g, &mut m, &mut v, &h);
    assert!(close(&p, &[0.9, 1.1], 1e-12), "{p:?}");
}

#[test]
fn adamw_checks_in_order() {
    let ok = AdamW {
        step: 1,
        lr: 1e-3,
        beta1: 0.9,
        beta2: 0.999,
        eps: 1e-8,
        weight_decay: 0.01,
    };
    assert!(check_adamw(&ok).is_ok());
    let msg = |h: AdamW| value_msg(check_adamw(&h).unwrap_err());
    assert_eq!(
        msg(AdamW {
            step: 0,
            lr: -1.0,
            ..ok
        }),
        "step must be at least 1, got 0"
    );
    assert_eq!(
        msg(AdamW {
            lr: -1.0,
            beta1: 1.0,
            ..ok
        }),
        "lr must be a finite number >= 0, got -1.0"
    );
    assert_eq!(
        msg(AdamW { lr: f64::NAN, ..ok }),
        "lr must be a finite number >= 0, got nan"
    );
    assert_eq!(
        msg(AdamW {
            beta1: 1.0,
            beta2: 2.0,
            ..ok
        }),
        "beta1 must be in [0, 1), got 1.0"
    );
    assert_eq!(
        msg(AdamW { beta2: -0.5, ..ok }),
        "beta2 must be in [0, 1), got -0.5"
    );
    assert_eq!(
        msg(AdamW {
            beta2: f64::NAN,
            ..ok
        }),
        "beta2 must be in [0, 1), got nan"
    );
    assert_eq!(
        msg(AdamW {
            eps: f64::INFINITY,
            ..ok
        }),
        "eps must be a finite number >= 0, got inf"
    );
    assert_eq!(
        msg(AdamW {
            weight_decay: -1e-20,
            ..ok
        }),
        "weight_decay must be a finite number >= 0, got -1e-20"
    );
    assert_eq!(
        value_msg(
            check_adamw_shapes(
                &[2, 3],
                [
                    ("grad", &[2, 3]),
                    ("exp_avg", &[3, 2]),
                    ("exp_avg_sq", &[1])
                ]
            )
            .unwrap_err()
        ),
        "exp_avg has shape (3, 2) and param has shape (2, 3): they must have the same shape"
    );
    assert!(check_separate(("param", (0, 8)), ("grad", (8, 16))).is_ok());
    assert!(check_separate(("param", (0, 8)), ("grad", (4, 4))).is_ok());
    assert_eq!(
        value_msg(check_separate(("grad", (0, 8)), ("exp_avg", (7, 16))).unwrap_err()),
        "grad and exp_avg share memory; adamw_step needs four separate arrays"
    );
}
