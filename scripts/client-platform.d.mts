import type { Plugin } from "esbuild";
export declare const PLATFORM_SPECIFIER: string;
export declare const PLATFORM_IMPORT: string;
export declare const browserPlatform: Plugin;
