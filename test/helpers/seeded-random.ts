/**
 * mulberry32: a small, fast, deterministic PRNG, so generated data (bench datasets, the synthetic whisper
 * model, random test corpora) is the same on every run. Its sequence is part of their caches and
 * expectations: do not change it (the whisper model's GENERATOR_VERSION would have to be bumped).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
