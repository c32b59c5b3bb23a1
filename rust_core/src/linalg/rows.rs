//! Arrays whose rows are contiguous but whose other axes may step any distance: NumPy views that
//! the kernels read where they are instead of copying them first — a column block of a fused
//! product (Q, K and V out of one Q·K·V product, gate and up out of one), a key/value cache's
//! first positions, a head split off by a reshape.
//!
//! `Layout` places batches of `[rows, cols]` matrices: batch b starts at `start(b)` and its rows
//! are `row_stride` elements apart. `Rows` is an array seen as its flat list of rows, for the
//! elementwise and row-wise kernels.

use crate::linalg::mat::Mat;

/// Where the matrices of one array lie in its slice: batch b's matrix starts at `start(b)` and its
/// rows are `row_stride` elements apart, each row contiguous. Batch offsets are computed, not
/// stored (as in `attention::MaskLayout`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    lead: Vec<usize>,
    lead_strides: Vec<usize>,
    row_stride: usize,
}

impl Layout {
    /// C order: batches of `rows × cols` matrices one after another.
    pub fn contiguous(lead: &[usize], rows: usize, cols: usize) -> Self {
        let mut lead_strides = vec![0; lead.len()];
        let mut step = rows.saturating_mul(cols);
        for (stride, &size) in lead_strides.iter_mut().zip(lead).rev() {
            *stride = step;
            step = step.saturating_mul(size);
        }
        Layout {
            lead: lead.to_vec(),
            lead_strides,
            row_stride: cols,
        }
    }

    /// Element strides of each leading axis and of the rows (the caller checks that every
    /// element they reach lies in the slice it will pass).
    pub fn strided(lead: &[usize], lead_strides: &[usize], row_stride: usize) -> Self {
        Layout {
            lead: lead.to_vec(),
            lead_strides: lead_strides.to_vec(),
            row_stride,
        }
    }

    /// Where batch `b`'s first row starts.
    #[inline]
    pub fn start(&self, b: usize) -> usize {
        unravel(b, &self.lead, &self.lead_strides)
    }

    /// Elements from one row to the next.
    #[inline]
    pub fn row_stride(&self) -> usize {
        self.row_stride
    }

    /// Rows r0 … r0 + rows − 1 of batch b, `cols` wide, out of `data`.
    ///
    /// # Panics
    ///
    /// When they do not lie in `data` (`Mat::new`): a bug in whoever built the layout.
    #[inline]
    pub fn rows<'a, T>(
        &self,
        data: &'a [T],
        b: usize,
        r0: usize,
        rows: usize,
        cols: usize,
    ) -> Mat<'a, T> {
        let start = if rows == 0 {
            0
        } else {
            self.start(b) + r0 * self.row_stride
        };
        Mat::new(&data[start.min(data.len())..], rows, cols, self.row_stride)
    }
}

/// Where the matrices of an array [..., rows, cols] lie when it is read in place: from its shape,
/// its strides and its item size (both in bytes), the layout and the elements from its first to
/// the last one it reaches. None when it must be copied instead: fewer than 2 dimensions, nothing
/// to read, rows that are not contiguous or that overlap, a negative stride or one that is not a
/// whole number of items. Axes of length 1 are never stepped along, so their strides (which NumPy
/// leaves arbitrary) are taken as 0.
pub fn strided_layout(
    shape: &[usize],
    strides: &[isize],
    item: isize,
    rows: usize,
    cols: usize,
) -> Option<(Layout, usize)> {
    let nd = shape.len();
    if nd < 2
        || strides.len() != nd
        || item <= 0
        || cols == 0
        || shape.contains(&0)
        || (cols > 1 && strides[nd - 1] != item)
    {
        return None;
    }
    // Element strides; 0 along axes of length 1.
    let mut steps = Vec::with_capacity(nd - 1);
    for (&size, &stride) in shape[..nd - 1].iter().zip(strides) {
        if size == 1 {
            steps.push(0);
        } else if stride < 0 || stride % item != 0 {
            return None;
        } else {
            steps.push((stride / item) as usize);
        }
    }
    let row_stride = if rows > 1 { steps[nd - 2] } else { cols };
    if rows > 1 && row_stride < cols {
        return None; // rows overlap
    }
    let last = shape[..nd - 1]
        .iter()
        .zip(&steps)
        .map(|(&size, &step)| (size - 1) * step)
        .sum::<usize>();
    let layout = Layout::strided(&shape[..nd - 2], &steps[..nd - 2], row_stride);
    Some((layout, last + cols))
}

/// (rows, columns) of an array [..., rows, cols]: (1, cols) for one dimension, (1, 1) for none.
pub fn rows_and_cols(shape: &[usize]) -> (usize, usize) {
    match shape {
        [.., n, cols] => (*n, *cols),
        [cols] => (1, *cols),
        [] => (1, 1),
    }
}

/// The offset of flat batch index `b` unravelled over `lead` (last fastest), with `strides`.
#[inline]
pub fn unravel(b: usize, lead: &[usize], strides: &[usize]) -> usize {
    let mut rest = b;
    let mut offset = 0;
    for (&size, &stride) in lead.iter().zip(strides).rev() {
        offset += (rest % size) * stride;
        rest /= size;
    }
    offset
}

/// An array [..., n, cols] as its flat list of rows (every leading axis and n flattened, in C
/// order), each row `cols` contiguous elements.
#[derive(Debug, Clone)]
pub struct Rows<'a, T> {
    data: &'a [T],
    /// The rows one after another (C order), when they are.
    flat: Option<&'a [T]>,
    layout: Layout,
    /// Rows per batch (n).
    n: usize,
    cols: usize,
}

impl<'a, T> Rows<'a, T> {
    /// A C-ordered array: rows of `cols` elements one after another.
    pub fn contiguous(data: &'a [T], cols: usize) -> Self {
        let n = data.len().checked_div(cols).unwrap_or(0).max(1); // 1: `row` divides by it
        Rows {
            data,
            flat: Some(data),
            layout: Layout::contiguous(&[], n, cols),
            n,
            cols,
        }
    }

    /// Batches of `n × cols` matrices placed by `layout` in `data` (the caller checks that they
    /// lie in it; `row` panics otherwise).
    pub fn strided(data: &'a [T], layout: Layout, n: usize, cols: usize) -> Self {
        Rows {
            data,
            flat: None,
            layout,
            n,
            cols,
        }
    }

    /// All the elements in C order, when the rows lie one after another.
    pub fn flat(&self) -> Option<&'a [T]> {
        self.flat
    }

    /// Elements in a row.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Flat row `r`.
    #[inline]
    pub fn row(&self, r: usize) -> &'a [T] {
        let (b, i) = (r / self.n, r % self.n);
        let start = self.layout.start(b) + i * self.layout.row_stride;
        &self.data[start..start + self.cols]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_a_column_block_and_of_a_head_view() {
        // A [2, 3, 8] array; its columns 4..8, a column block: [2, 3, 4] with rows 8 apart.
        let data: Vec<u32> = (0..48).collect();
        let block = Rows::strided(&data[4..], Layout::strided(&[2], &[24], 8), 3, 4);
        assert_eq!(block.row(0), &[4, 5, 6, 7]);
        assert_eq!(block.row(4), &[36, 37, 38, 39]); // batch 1, row 1

        // Batch 0 seen as [3, 2, 4] and split into heads: [2, 3, 4], head 1 at column 4.
        let heads = Rows::strided(&data, Layout::strided(&[2], &[4], 8), 3, 4);
        assert_eq!(heads.row(3), &[4, 5, 6, 7]); // head 1, row 0
        assert_eq!(heads.row(5), &[20, 21, 22, 23]); // head 1, row 2
        assert_eq!(Rows::contiguous(&data, 8).row(5), &data[40..48]);
    }

    #[test]
    fn strided_layouts_of_views_read_in_place() {
        // Columns 4..8 of a float32 [2, 3, 8] array: [2, 3, 4], rows 32 bytes apart.
        let (layout, len) = strided_layout(&[2, 3, 4], &[96, 32, 4], 4, 3, 4).unwrap();
        assert_eq!(layout, Layout::strided(&[2], &[24], 8));
        assert_eq!(len, 24 + 2 * 8 + 4);
        // An axis of length 1 steps nowhere, whatever NumPy says its stride is.
        let (layout, _) = strided_layout(&[1, 3, 4], &[-7, 32, 4], 4, 3, 4).unwrap();
        assert_eq!(layout, Layout::strided(&[1], &[0], 8));
        // Copied instead: strided columns, overlapping rows, a negative stride, a part of an
        // item, nothing to read, one dimension.
        assert!(strided_layout(&[3, 4], &[32, 8], 4, 3, 4).is_none());
        assert!(strided_layout(&[3, 4], &[8, 4], 4, 3, 4).is_none());
        assert!(strided_layout(&[2, 3, 4], &[-96, 32, 4], 4, 3, 4).is_none());
        assert!(strided_layout(&[3, 4], &[33, 4], 4, 3, 4).is_none());
        assert!(strided_layout(&[0, 4], &[16, 4], 4, 0, 4).is_none());
        assert!(strided_layout(&[4], &[4], 4, 1, 4).is_none());
        assert_eq!(rows_and_cols(&[2, 3, 4]), (3, 4));
        assert_eq!(rows_and_cols(&[4]), (1, 4));
        assert_eq!(rows_and_cols(&[]), (1, 1));
    }
}
