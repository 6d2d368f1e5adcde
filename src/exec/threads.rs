//! Threads of a CTA cut into warps, and the special registers each lane reads
//! (PTX ISA 10, "Special Registers"; DESIGN.md, "SIMT model"): threads are
//! linearised `x + y*nx + z*nx*ny` and cut into warps of 32, the last one possibly
//! partial.

pub const WARP_SIZE: u32 = 32;

/// A grid or block shape, or a thread's or CTA's coordinates in one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// CUDA's limits for compute capability 9.0 (CUDA C++ Programming Guide, table
/// "Technical Specifications per Compute Capability").
pub const MAX_BLOCK_THREADS: u64 = 1024;
pub const MAX_BLOCK: Dim3 = Dim3 { x: 1024, y: 1024, z: 64 };
pub const MAX_GRID: Dim3 = Dim3 { x: i32::MAX as u32, y: 65535, z: 65535 };
pub const MAX_DYNAMIC_SHARED: u64 = 227 * 1024;

/// Whether a launch of `grid` CTAs of `block` threads is within CUDA's limits:
/// every dimension at least 1 and at most [`MAX_GRID`] and [`MAX_BLOCK`], and at
/// most [`MAX_BLOCK_THREADS`] threads to a CTA.
pub fn shape_fits(grid: Dim3, block: Dim3) -> bool {
    let within = |d: Dim3, max: Dim3| {
        (1..=max.x).contains(&d.x) && (1..=max.y).contains(&d.y) && (1..=max.z).contains(&d.z)
    };
    within(grid, MAX_GRID) && within(block, MAX_BLOCK) && block.count() <= MAX_BLOCK_THREADS
}

impl Dim3 {
    /// The number of points: `x * y * z`.
    pub fn count(self) -> u64 {
        u64::from(self.x) * u64::from(self.y) * u64::from(self.z)
    }
}

/// The shape of a launch as the special registers see it: the grid of CTAs, each
/// CTA's threads, and the clusters the grid is tiled into (1 x 1 x 1: a cluster is
/// one CTA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub grid: Dim3,
    pub block: Dim3,
    pub cluster: Dim3,
}

/// A cluster of one CTA.
pub const ONE: Dim3 = Dim3 { x: 1, y: 1, z: 1 };

impl Shape {
    /// CTAs in a cluster.
    pub fn cluster_size(&self) -> u32 {
        self.cluster.count() as u32
    }

    /// Clusters in the grid.
    pub fn clusters(&self) -> u64 {
        self.grid.count() / self.cluster.count().max(1)
    }

    /// `%clusterid` of the `n`-th CTA (launch order).
    pub fn clusterid(&self, n: u64) -> Dim3 {
        let c = self.ctaid(n);
        Dim3 { x: c.x / self.cluster.x, y: c.y / self.cluster.y, z: c.z / self.cluster.z }
    }

    /// `%cluster_ctaid` of the `n`-th CTA.
    pub fn cluster_ctaid(&self, n: u64) -> Dim3 {
        let c = self.ctaid(n);
        Dim3 { x: c.x % self.cluster.x, y: c.y % self.cluster.y, z: c.z % self.cluster.z }
    }

    /// `%cluster_ctarank` of the `n`-th CTA: its place in its cluster, x fastest.
    pub fn rank(&self, n: u64) -> u32 {
        let (c, k) = (self.cluster_ctaid(n), self.cluster);
        c.x + k.x * (c.y + k.y * c.z)
    }

    /// The number of the cluster of the `n`-th CTA, in the order [`Shape::cta_of`]
    /// takes.
    pub fn cluster_index(&self, n: u64) -> u64 {
        let (id, nc) = (self.clusterid(n), self.nclusterid());
        u64::from(id.x) + u64::from(nc.x) * (u64::from(id.y) + u64::from(nc.y) * u64::from(id.z))
    }

    /// `%nclusterid`: clusters along each dimension of the grid.
    pub fn nclusterid(&self) -> Dim3 {
        let (g, k) = (self.grid, self.cluster);
        Dim3 { x: g.x / k.x, y: g.y / k.y, z: g.z / k.z }
    }

    /// The launch-order number of the CTA of rank `rank` in cluster number `c`
    /// (clusters numbered x fastest, as CTAs are).
    pub fn cta_of(&self, c: u64, rank: u32) -> u64 {
        let nc = self.nclusterid();
        let (ncx, ncy) = (u64::from(nc.x), u64::from(nc.y));
        let id = Dim3 { x: (c % ncx) as u32, y: (c / ncx % ncy) as u32, z: (c / (ncx * ncy)) as u32 };
        let k = self.cluster;
        let r = Dim3 { x: rank % k.x, y: rank / k.x % k.y, z: rank / (k.x * k.y) };
        let (x, y, z) = (id.x * k.x + r.x, id.y * k.y + r.y, id.z * k.z + r.z);
        let (gx, gy) = (u64::from(self.grid.x), u64::from(self.grid.y));
        u64::from(x) + gx * (u64::from(y) + gy * u64::from(z))
    }

    /// Warps per CTA (the last may be partial).
    pub fn warps_per_cta(&self) -> u32 {
        (self.block.count() as u32).div_ceil(WARP_SIZE)
    }

    /// The lanes of warp `w` that hold threads.
    pub fn warp_mask(&self, w: u32) -> u32 {
        let threads = self.block.count() as u32;
        let first = w * WARP_SIZE;
        match threads.saturating_sub(first) {
            0 => 0,
            n if n >= WARP_SIZE => u32::MAX,
            n => (1u32 << n) - 1,
        }
    }

    /// `%tid` of lane `lane` of warp `w`.
    pub fn tid(&self, w: u32, lane: u32) -> Dim3 {
        let linear = w * WARP_SIZE + lane;
        let (nx, ny) = (self.block.x, self.block.y);
        Dim3 { x: linear % nx, y: linear / nx % ny, z: linear / (nx * ny) }
    }

    /// The CTA id of the `n`-th CTA in launch order (x fastest).
    pub fn ctaid(&self, n: u64) -> Dim3 {
        let (gx, gy) = (u64::from(self.grid.x), u64::from(self.grid.y));
        Dim3 { x: (n % gx) as u32, y: (n / gx % gy) as u32, z: (n / (gx * gy)) as u32 }
    }
}

/// `%lanemask_eq/le/lt/ge/gt` of a lane.
pub fn lanemask(lane: u32) -> [u32; 5] {
    let eq = 1u32 << lane;
    let lt = eq - 1;
    [eq, lt | eq, lt, !lt, !(lt | eq)]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(block: (u32, u32, u32)) -> Shape {
        Shape {
            grid: Dim3 { x: 3, y: 2, z: 2 },
            block: Dim3 { x: block.0, y: block.1, z: block.2 },
            cluster: ONE,
        }
    }

    #[test]
    fn threads_are_linearised_x_fastest_and_cut_into_warps() {
        let s = shape((10, 4, 2)); // 80 threads: warps of 32, 32, 16
        assert_eq!(s.warps_per_cta(), 3);
        assert_eq!((s.warp_mask(0), s.warp_mask(2), s.warp_mask(3)), (u32::MAX, 0xffff, 0));
        assert_eq!(s.tid(0, 0), Dim3 { x: 0, y: 0, z: 0 });
        assert_eq!(s.tid(0, 11), Dim3 { x: 1, y: 1, z: 0 });
        // Thread 45 = 5 + 0*10 + 1*40: x 5, y 0, z 1.
        assert_eq!(s.tid(1, 13), Dim3 { x: 5, y: 0, z: 1 });
        assert_eq!(s.tid(2, 15), Dim3 { x: 9, y: 3, z: 1 });
        // Every thread of the block appears exactly once.
        let mut seen = std::collections::HashSet::new();
        for w in 0..3 {
            for lane in (0..32).filter(|l| s.warp_mask(w) >> l & 1 == 1) {
                assert!(seen.insert(s.tid(w, lane)));
            }
        }
        assert_eq!(seen.len(), 80);
    }

    #[test]
    fn ctas_in_launch_order_and_lane_masks() {
        let s = shape((32, 1, 1));
        assert_eq!(s.ctaid(0), Dim3 { x: 0, y: 0, z: 0 });
        assert_eq!(s.ctaid(4), Dim3 { x: 1, y: 1, z: 0 });
        assert_eq!(s.ctaid(11), Dim3 { x: 2, y: 1, z: 1 });
        assert_eq!(lanemask(0), [1, 1, 0, u32::MAX, u32::MAX - 1]);
        assert_eq!(lanemask(31), [1 << 31, u32::MAX, u32::MAX >> 1, 1 << 31, 0]);
        assert_eq!(lanemask(5), [0x20, 0x3f, 0x1f, !0x1f, !0x3f]);
    }
}
