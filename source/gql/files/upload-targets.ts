import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type {FileColumn, GqlColumn, GqlModel, GqlTable} from '../types.js';
import {GraphQLUpload} from './staged-file.js';
import {UploadRefused} from './upload-refused.js';

export interface UploadTarget {
  table: GqlTable;
  column: GqlColumn & {file: FileColumn};
}

/** `Insert_<t>.<column>` and its siblings → the file column they write (mutation-fields.ts names the inputs `<Op>_<object type>`). */
function fileInputs(model: GqlModel, schema: GraphQLSchema): Map<string, UploadTarget> {
  const byObject = new Map<string, GqlTable>();
  for (const table of model.tables) if (schema.getType(table.name)) byObject.set(table.name, table);
  const inputs = new Map<string, UploadTarget>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isInputObjectType(type)) continue;
    const table = byObject.get(type.name.replace(/^[A-Za-z]+_/, ''));
    if (!table) continue;
    for (const field of Object.values(type.getFields())) {
      if (getNamedType(field.type) !== GraphQLUpload) continue;
      const column = table.columns.find((item) => item.name === field.name && item.file);
      if (column) inputs.set(`${type.name}.${field.name}`, {table, column: column as UploadTarget['column']});
    }
  }
  return inputs;
}

/**
 * The file column each `map` path of a multipart request writes, found before a byte of the file
 * is read, so its size and type are checked against that column while it streams and it goes to
 * that column's storage. A path is `variables.<name>[.<field or index>…]`: an Upload variable
 * used as a file column's value, or a place inside an input variable that is a file column.
 */
export function uploadTargets(model: GqlModel, schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): (path: string) => UploadTarget {
  const inputs = fileInputs(model, schema);
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((item) => item.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation)
    throw new UploadRefused(
      400,
      operationName ? `operations: no operation named ${operationName}` : 'operations: the document must hold one operation (or name one in operationName)',
    );
  const usages = uploadVariableUsages(schema, document, operation, inputs);
  return (path: string) => {
    const [root, name, ...rest] = path.split('.');
    const definition = operation.variableDefinitions?.find((item) => item.variable.name.value === name);
    if (root !== 'variables' || !name || !definition) throw new UploadRefused(400, `map: ${JSON.stringify(path)} is not a variable of the operation (write variables.<name>…)`);
    let type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    let parent: string | undefined;
    let field: string | undefined;
    for (const segment of rest) {
      const nullable = type ? getNullableType(type) : undefined;
      if (nullable && isListType(nullable) && /^\d+$/.test(segment)) type = nullable.ofType as GraphQLInputType;
      else if (nullable && isInputObjectType(nullable) && nullable.getFields()[segment]) {
        parent = nullable.name;
        field = segment;
        type = nullable.getFields()[segment]!.type;
      } else throw new UploadRefused(400, `map: ${JSON.stringify(path)} does not lead anywhere in the variable's type`);
    }
    if (!type || getNamedType(type) !== GraphQLUpload) throw new UploadRefused(400, `map: ${JSON.stringify(path)} is not an Upload (a file column's input)`);
    const target = parent ? inputs.get(`${parent}.${field}`) : usages.get(name);
    if (!target) throw new UploadRefused(400, `map: ${JSON.stringify(path)}: the variable $${name} must be used as exactly one file column's value`);
    return target;
  };
}

/** Where each Upload variable is written as a file column's value (a variable used for two columns maps to none). */
function uploadVariableUsages(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, inputs: Map<string, UploadTarget>): Map<string, UploadTarget> {
  const found = new Map<string, UploadTarget | null>();
  const typeInfo = new TypeInfo(schema);
  visit(
    {...document, definitions: [operation]},
    visitWithTypeInfo(typeInfo, {
      ObjectField(node) {
        if (node.value.kind !== Kind.VARIABLE) return;
        const parent = getNamedType(typeInfo.getParentInputType());
        const target = parent ? inputs.get(`${parent.name}.${node.name.value}`) : undefined;
        if (!target) return;
        const name = node.value.name.value;
        found.set(name, found.has(name) && found.get(name) !== target ? null : target);
      },
    }),
  );
  return new Map([...found].filter((entry): entry is [string, UploadTarget] => entry[1] !== null));
}
