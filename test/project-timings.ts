import type { Reporter, TestModule } from "vitest/node";

interface ProjectTiming {
  start: number;
  end: number;
  files: number;
}

/**
 * A vitest reporter that prints, at the end of a run, each project's wall-clock time (from its
 * first file starting to its last file ending, in seconds) and its number of files, so that a slower
 * group shows in every CI log (docs/testing.md, "Where the time goes").
 */
export default class ProjectTimings implements Reporter {
  private readonly projects = new Map<string, ProjectTiming>();

  onTestModuleStart(module: TestModule): void {
    const now = performance.now();
    const name = module.project.name;
    if (!this.projects.has(name)) this.projects.set(name, { start: now, end: now, files: 0 });
  }

  onTestModuleEnd(module: TestModule): void {
    const timing = this.projects.get(module.project.name);
    if (!timing) return;
    timing.end = performance.now();
    timing.files += 1;
  }

  onTestRunEnd(): void {
    if (this.projects.size === 0) return;
    console.log("\nTime per vitest project (first file's start to last file's end):");
    for (const [name, t] of this.projects) {
      console.log(`  ${name.padEnd(14)} ${((t.end - t.start) / 1000).toFixed(0).padStart(5)} s  ${t.files} files`);
    }
  }
}
