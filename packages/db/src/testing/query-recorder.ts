import {
  PostgresQueryCompiler,
  type CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";

/**
 * A Kysely plugin that collects the SQL and parameters of the statements run through the
 * database it is plugged into (`db.withPlugin(recorder)`), in the order their results come back.
 * A query builder used as a subquery is transformed too but never executed: only the queries
 * whose results come back are kept. Changes neither queries nor results.
 */
export class QueryRecorder implements KyselyPlugin {
  /** The statements executed so far, oldest first. */
  readonly executed: CompiledQuery[] = [];
  private readonly compiled = new Map<unknown, CompiledQuery>();
  private readonly compiler = new PostgresQueryCompiler();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.compiled.set(args.queryId, this.compiler.compileQuery(args.node, args.queryId));
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const query = this.compiled.get(args.queryId);
    if (query) this.executed.push(query);
    return Promise.resolve(args.result);
  }
}
