/** The stamp written into dist/ by the build. */
export declare const BUILD_INFO: string;
/** Every file under `<root>/src`. */
export declare function sourceFiles(root: string): string[];
/** The compiled CLI's file when dist/ is fresh, else null. */
export declare function compiledMain(root: string): string | null;
