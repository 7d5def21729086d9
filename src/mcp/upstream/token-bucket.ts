/** A token bucket: `burst` at once, then `perSecond`; what thins an upstream's floods. */
export interface TokenBucket {
  /** Takes a token if one is there. */
  take(): boolean;
  /** Milliseconds until the next token. */
  wait(): number;
}

export function createTokenBucket(
  burst: number,
  perSecond: number,
  now: () => number = Date.now,
): TokenBucket {
  let tokens = burst;
  let filledAt = now();
  const refill = () => {
    const at = now();
    tokens = Math.min(burst, tokens + ((at - filledAt) / 1000) * perSecond);
    filledAt = at;
  };
  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    wait() {
      refill();
      return tokens >= 1 ? 0 : ((1 - tokens) / perSecond) * 1000;
    },
  };
}
