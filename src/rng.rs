//! The one pseudo-random generator of the crate, written out so that a seed means the same
//! sequence forever, on every platform and whatever the dependencies do.
//!
//! # SplitMix64
//! Sebastiano Vigna's SplitMix64 (public domain, the seeding generator of the xoshiro family):
//! a 64-bit state advanced by the golden-ratio increment `0x9E3779B97F4A7C15`, each output the
//! state passed through the mixing function
//!
//! ```text
//! z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
//! z = (z ^ (z >> 27)) * 0x94D049BB133111EB
//! z =  z ^ (z >> 31)
//! ```
//!
//! (wrapping multiplications). The first output for seed 0 is `0xE220A8397B1DCDAF`; the tests
//! pin the first three so the definition cannot drift. Statistical quality is ample for shuffling nine digits; it is not for
//! cryptography.
//!
//! # Shuffling
//! [`SplitMix64::shuffle`] is Fisher-Yates from the last position down: position `i` swaps with
//! position `next() % (i + 1)`. The modulo bias (below 2^-60 for `i < 9`) is irrelevant here
//! and keeps the definition one line long. Changing either definition changes what every seed
//! produces, so both are part of the crate's output contract.

/// SplitMix64: a 64-bit state and a mixing function. See the module page.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator whose first output is the mix of `seed + 0x9E3779B97F4A7C15`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Output number `index` (0-based) of the generator seeded with `seed`, without running
    /// it: the state after `index + 1` steps is `seed + (index + 1) * 0x9E3779B97F4A7C15`
    /// (wrapping), so this is `SplitMix64::new(seed + index * 0x9E3779B97F4A7C15).next_u64()`.
    /// Used to give item `index` of a seeded batch its own generator, whatever order or thread
    /// it is made in.
    pub fn output_at(seed: u64, index: u64) -> u64 {
        SplitMix64::new(seed.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))).next_u64()
    }

    /// A value in `0..n` (`n > 0`), as `next_u64() % n`.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles `items` in place (Fisher-Yates, last position first).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_outputs_for_seed_zero_are_pinned() {
        // Worked out from the definition on the module page, independently of this code.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn output_at_skips_ahead() {
        let mut rng = SplitMix64::new(42);
        for index in 0..5 {
            assert_eq!(SplitMix64::output_at(42, index), rng.next_u64());
        }
    }

    #[test]
    fn shuffle_is_a_permutation_and_depends_on_the_seed() {
        let shuffled = |seed| {
            let mut v: Vec<u8> = (1..=9).collect();
            SplitMix64::new(seed).shuffle(&mut v);
            v
        };
        let a = shuffled(1);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (1..=9).collect::<Vec<u8>>());
        assert_eq!(a, shuffled(1));
        assert!((2..10).any(|s| shuffled(s) != a));
    }
}
