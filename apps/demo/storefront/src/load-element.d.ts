/** Resolves true once `<pix-checkout>` is defined, false when its package could not load. */
export declare const elementLoaded: Promise<boolean>;
