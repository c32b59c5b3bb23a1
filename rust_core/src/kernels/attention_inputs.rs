//! What an attention call takes and returns, checked: the shapes of q, k, v and the results
//! (`Dims`, from `check_shapes`), the scale, the mask and its broadcast layout, and the options
//! the kernels read (`Options`). Shared by the forward (`attention`), its gradient
//! (`attention_backward`) and the whole-head path (`attention_head`).

use crate::error::{checked_len, fmt_shape, py_float_repr, CoreError, Result};
use crate::linalg::mat::Mat;
use crate::linalg::rows::{unravel, Layout};
use crate::real::Real;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dims {
    /// The leading dimensions `...` shared by q, k and v.
    pub lead: Vec<usize>,
    /// Product of `lead`.
    pub batch: usize,
    pub n: usize,
    pub m: usize,
    pub d_k: usize,
    pub d_v: usize,
    /// Query heads per key/value head (g of grouped-query attention; 1 when not grouped).
    pub group: usize,
    /// Where q's, k's and v's matrices lie in their slices: C order from `check_shapes`; a view
    /// read in place (a key/value cache's first positions, the heads of a fused Q·K·V product)
    /// has its own strides (`Layout::strided`).
    pub q_layout: Layout,
    pub k_layout: Layout,
    pub v_layout: Layout,
}

impl Dims {
    /// The batch index of k and v that q's batch index `b` reads.
    #[inline]
    pub fn kv(&self, b: usize) -> usize {
        b / self.group
    }

    /// Query rows i0 … i0 + rows − 1 of batch `b`, out of `q`.
    #[inline]
    pub fn queries<'a, T>(&self, q: &'a [T], b: usize, i0: usize, rows: usize) -> Mat<'a, T> {
        self.q_layout.rows(q, b, i0, rows, self.d_k)
    }

    /// Keys j0 … j0 + cols − 1 that q's batch `b` reads, out of `k`.
    #[inline]
    pub fn keys<'a, T>(&self, k: &'a [T], b: usize, j0: usize, cols: usize) -> Mat<'a, T> {
        self.k_layout.rows(k, self.kv(b), j0, cols, self.d_k)
    }

    /// Values j0 … j0 + cols − 1 that q's batch `b` reads, out of `v`.
    #[inline]
    pub fn values<'a, T>(&self, v: &'a [T], b: usize, j0: usize, cols: usize) -> Mat<'a, T> {
        self.v_layout.rows(v, self.kv(b), j0, cols, self.d_v)
    }

    /// The shape of the weights, `(*lead, n, m)`.
    pub fn scores_shape(&self) -> Vec<usize> {
        [self.lead.as_slice(), &[self.n, self.m]].concat()
    }

    /// The shape of the output, `(*lead, n, d_v)`.
    pub fn output_shape(&self) -> Vec<usize> {
        [self.lead.as_slice(), &[self.n, self.d_v]].concat()
    }
}

/// The results of an attention entry point: `attention`'s output, `attention_weights`' weights,
/// or both for `attention_with_weights`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Results {
    Output,
    Weights,
    Both,
}

impl Results {
    /// E23's view of the results: each one's name in the message and its shape, in the order
    /// they are returned (and checked).
    pub fn shapes(self, dims: &Dims) -> Vec<(&'static str, Vec<usize>)> {
        match self {
            Results::Output => vec![("the result", dims.output_shape())],
            Results::Weights => vec![("the result", dims.scores_shape())],
            Results::Both => vec![
                ("the result", dims.output_shape()),
                ("the weights", dims.scores_shape()),
            ],
        }
    }
}

fn split_last_two<'a>(name: &str, shape: &'a [usize]) -> Result<(&'a [usize], usize, usize)> {
    match shape {
        [lead @ .., rows, cols] => Ok((lead, *rows, *cols)),
        _ => Err(CoreError::Value(format!(
            "{name} must have at least 2 dimensions [..., n, d], got shape {}",
            fmt_shape(shape)
        ))),
    }
}

/// Check q [..., n, d_k], k [..., m, d_k] and (for `attention`) v [..., m, d_v], in the order and
/// with the messages of docs/api.md. When q and k both have 3 or more dimensions, axis −3 is the
/// heads: k (and v) may have fewer (h_kv), as long as q's h is a multiple of them (E30); every
/// other leading dimension must be equal (E11), and v's leading dimensions are k's.
pub fn check_shapes(q: &[usize], k: &[usize], v: Option<&[usize]>) -> Result<Dims> {
    let (q_lead, n, d_k) = split_last_two("q", q)?;
    let (k_lead, m, k_dk) = split_last_two("k", k)?;
    let v_parts = v.map(|v| split_last_two("v", v)).transpose()?;
    if k_dk != d_k {
        return Err(CoreError::Value(format!(
            "q has shape {} and k has shape {}: their last dimensions (d_k) differ",
            fmt_shape(q),
            fmt_shape(k)
        )));
    }
    let lead_mismatch = |a: &str, a_shape: &[usize], b: &str, b_shape: &[usize]| {
        CoreError::Value(format!(
            "{a} has shape {} and {b} has shape {}: leading dimensions must be equal",
            fmt_shape(a_shape),
            fmt_shape(b_shape)
        ))
    };
    let group = match (q_lead, k_lead) {
        ([q_outer @ .., h], [k_outer @ .., h_kv]) if q_outer == k_outer && h != h_kv => {
            if *h_kv == 0 || h % h_kv != 0 {
                return Err(CoreError::Value(format!(
                    "q has shape {} and k has shape {}: the number of query heads (axis -3, {h}) \
                     must be a multiple of the number of key/value heads ({h_kv})",
                    fmt_shape(q),
                    fmt_shape(k)
                )));
            }
            h / h_kv
        }
        _ if q_lead == k_lead => 1,
        _ => return Err(lead_mismatch("q", q, "k", k)),
    };
    let mut d_v = 0;
    if let (Some(v), Some((v_lead, v_m, v_dv))) = (v, v_parts) {
        if v_lead != k_lead {
            return Err(lead_mismatch("k", k, "v", v));
        }
        if v_m != m {
            return Err(CoreError::Value(format!(
                "k has shape {} and v has shape {}: they must have the same number of keys (m)",
                fmt_shape(k),
                fmt_shape(v)
            )));
        }
        d_v = v_dv;
    }
    Ok(Dims {
        lead: q_lead.to_vec(),
        batch: checked_len(q_lead)?,
        n,
        m,
        d_k,
        d_v,
        group,
        q_layout: Layout::contiguous(q_lead, n, d_k),
        k_layout: Layout::contiguous(k_lead, m, d_k),
        v_layout: Layout::contiguous(k_lead, m, d_v),
    })
}

/// 1/√d_k, the default scale; 1 when d_k = 0 (there is nothing to scale, and 1/0 would turn the
/// empty dot products into NaN).
pub fn default_scale(d_k: usize) -> f64 {
    if d_k == 0 {
        1.0
    } else {
        1.0 / (d_k as f64).sqrt()
    }
}

pub fn check_scale(scale: f64) -> Result<f64> {
    if scale.is_finite() {
        Ok(scale)
    } else {
        Err(CoreError::Value(format!(
            "scale must be a finite number, got {}",
            py_float_repr(scale)
        )))
    }
}

/// The values of a mask: which keys a query may attend to, or numbers added to its scores.
#[derive(Debug, Clone, Copy)]
pub enum MaskValues<'a, T> {
    Allow(&'a [bool]),
    Add(&'a [T]),
}

/// Where the elements of a C-contiguous mask sit once broadcast (without copying) to the scores'
/// shape `(*lead, n, m)`: element (b, i, j) is at `offset(b) + i·row_stride + j·col_stride`, where
/// a broadcast dimension has stride 0. Built from shapes alone, so E13 is checked before any mask
/// data is read.
#[derive(Debug, Clone)]
pub struct MaskLayout {
    /// The leading dimensions and the mask's strides along them. Batch offsets are computed per
    /// row rather than stored: a table of them would take 8 bytes per batch entry, more than the
    /// result itself when n·m is small (lead (10⁹,) with n = m = 1 would have needed 8 GB).
    lead: Vec<usize>,
    lead_strides: Vec<usize>,
    pub(crate) row_stride: usize,
    pub(crate) col_stride: usize,
}

impl MaskLayout {
    /// E13: the layout of a mask of `mask_shape` broadcast to the scores of `dims`.
    pub fn new(mask_shape: &[usize], dims: &Dims) -> Result<Self> {
        let target = dims.scores_shape();
        let error = || {
            CoreError::Value(format!(
                "mask of shape {} cannot be broadcast to the scores' shape {}",
                fmt_shape(mask_shape),
                fmt_shape(&target)
            ))
        };
        if mask_shape.len() > target.len() {
            return Err(error());
        }
        // Left-pad the mask's shape with 1s, as NumPy does, then give broadcast dimensions stride 0.
        let padded: Vec<usize> = std::iter::repeat_n(1, target.len() - mask_shape.len())
            .chain(mask_shape.iter().copied())
            .collect();
        let mut strides = vec![0usize; target.len()];
        let mut c_stride = 1usize;
        for axis in (0..target.len()).rev() {
            if padded[axis] == target[axis] {
                strides[axis] = if padded[axis] == 1 { 0 } else { c_stride };
            } else if padded[axis] != 1 {
                return Err(error());
            }
            c_stride *= padded[axis];
        }
        let lead_len = dims.lead.len();
        Ok(MaskLayout {
            lead: dims.lead.clone(),
            lead_strides: strides[..lead_len].to_vec(),
            row_stride: strides[lead_len],
            col_stride: strides[lead_len + 1],
        })
    }

    /// The position of element (b, 0, 0): the flat batch index unravelled over the leading
    /// dimensions, last fastest.
    pub(crate) fn offset(&self, b: usize) -> usize {
        unravel(b, &self.lead, &self.lead_strides)
    }
}

/// A C-contiguous mask's values with their broadcast layout.
#[derive(Debug, Clone)]
pub struct Mask<'a, T> {
    pub values: MaskValues<'a, T>,
    pub layout: MaskLayout,
}

/// What a call needs besides q, k, v.
#[derive(Debug, Clone)]
pub struct Options<'a, T> {
    pub mask: Option<Mask<'a, T>>,
    pub causal: bool,
    pub scale: T,
}

/// Scores of the tile rows i0.. and keys j0.. in `s` (row stride `cols`): add the mask — a bool
/// mask adds 0 (True) or −inf (False), so a NaN or +inf score stays NaN, as in PyTorch's
/// reference — then set −inf where causal hides the key, whatever the score.
pub(crate) fn mask_tile<T: Real>(
    s: &mut [T],
    b: usize,
    i0: usize,
    j0: usize,
    cols: usize,
    opt: &Options<T>,
) {
    let batch_offset = opt.mask.as_ref().map_or(0, |mask| mask.layout.offset(b));
    for (r, row) in s.chunks_mut(cols).enumerate() {
        let i = i0 + r;
        if let Some(mask) = &opt.mask {
            let layout = &mask.layout;
            let base = batch_offset + i * layout.row_stride;
            // A C-contiguous mask's last axis has stride 1, or 0 where it is broadcast (one value
            // for the whole row): plain loops over slices, which vectorise.
            let broadcast = layout.col_stride == 0;
            let at = if broadcast { base } else { base + j0 };
            match mask.values {
                MaskValues::Add(add) if broadcast => {
                    let a = add[at];
                    row.iter_mut().for_each(|x| *x = *x + a);
                }
                MaskValues::Add(add) => {
                    for (x, &a) in row.iter_mut().zip(&add[at..at + cols]) {
                        *x = *x + a;
                    }
                }
                MaskValues::Allow(allow) if broadcast => {
                    if !allow[at] {
                        row.iter_mut().for_each(|x| *x = *x + T::neg_infinity());
                    }
                }
                MaskValues::Allow(allow) => {
                    // Branch-free (x + 0 where allowed), so the loop vectorises.
                    for (x, &a) in row.iter_mut().zip(&allow[at..at + cols]) {
                        *x = *x + if a { T::zero() } else { T::neg_infinity() };
                    }
                }
            }
        }
        if opt.causal && j0 + cols > i + 1 {
            // keys j > i, i.e. columns c > i − j0
            let first_hidden = (i + 1).saturating_sub(j0);
            row[first_hidden..].fill(T::neg_infinity());
        }
    }
}
