import fs from 'node:fs';
import path from 'node:path';

export interface FileTemplate {
  name: string;
  content: string;
}

/** A category's sub-folder of the template root; '' is the root itself. */
export type Categories = readonly string[];

/**
 * GitLab's `Gitlab::Template::BaseTemplate` over a folder of files: one
 * template per `<name><extension>` file, listed category by category, each
 * category sorted by name, and found by its base name in the first category
 * that has it. Read once, so no request touches the file system.
 */
export class FileTemplates {
  private readonly templates: FileTemplate[];
  private readonly byName = new Map<string, FileTemplate>();

  constructor(root: string, extension: string, categories: Categories, transform: (content: string) => string = (content) => content) {
    this.templates = categories.flatMap((category) => readCategory(path.join(root, category), extension, transform));
    for (const template of this.templates) if (!this.byName.has(template.name)) this.byName.set(template.name, template);
  }

  list(): readonly FileTemplate[] {
    return this.templates;
  }

  find(name: string): FileTemplate | undefined {
    return this.byName.get(name);
  }
}

function readCategory(directory: string, extension: string, transform: (content: string) => string): FileTemplate[] {
  if (!fs.existsSync(directory)) return [];
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension) && entry.name.length > extension.length)
    .map((entry) => ({
      name: entry.name.slice(0, -extension.length),
      content: transform(fs.readFileSync(path.join(directory, entry.name), 'utf8')),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
