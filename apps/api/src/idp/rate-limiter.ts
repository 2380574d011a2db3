export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the caller's window starts over. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  hit(key: string): RateLimitResult;
}

/**
 * A fixed-window counter per key (the caller's IP), in this process's memory. It guards the
 * password form and the token endpoint, which @fastify/rate-limit cannot reach: the token endpoint
 * is answered by oidc-provider inside middie, before any Fastify route runs. With several API
 * processes each one counts on its own, so the effective limit is at most N × max per window.
 */
export function createRateLimiter(options: { max: number; windowMs: number }): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = 0;

  function sweep(now: number): void {
    // Expired windows are dropped at most once a window, so the map holds only recent callers.
    if (now < nextSweep) return;
    nextSweep = now + options.windowMs;
    for (const [key, window] of windows) {
      if (window.resetAt <= now) windows.delete(key);
    }
  }

  return {
    hit(key) {
      const now = Date.now();
      sweep(now);
      let window = windows.get(key);
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + options.windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return {
        allowed: window.count <= options.max,
        retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
      };
    },
  };
}
