/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.PrimitiveTypeTree;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;

import javax.lang.model.element.Modifier;
import javax.lang.model.type.TypeKind;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Rewrites Java sources in place as signature-only stubs: every method and constructor body becomes
 * {@code throw new UnsupportedOperationException("stub");} (a constructor keeps a leading {@code super(...)} or
 * {@code this(...)} call), initializer blocks become empty, and imports that only the removed bodies used are dropped.
 * A field's initializer becomes {@code null}, {@code 0} or {@code false} unless the field may be a constant (static
 * final, of a primitive type or String). Declarations, annotations, comments and layout stay as written.
 *
 * <p>Why: apache/hudi master's {@code hudi-utilities} is not served as a jar here, and its sources do not compile
 * against the released Hudi 1.0.2 bundle (their bodies call master-only classes). Their signatures do, so
 * upstream/build-master.sh compiles a master patch against stubs of the master files it does not add, which checks
 * the patch against master's signatures without running master's code.
 *
 * <p>Usage: {@code java SignatureStubs.java FILE...} (parses only; nothing is resolved).
 */
public final class SignatureStubs {

  private static final String THROW = "throw new UnsupportedOperationException(\"stub\");";

  private SignatureStubs() {
  }

  public static void main(String[] args) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
    List<Path> paths = Stream.of(args).map(Path::of).collect(Collectors.toList());
    JavacTask task = (JavacTask) javac.getTask(null, files, null, List.of("-proc:none"), null,
        files.getJavaFileObjectsFromPaths(paths));
    SourcePositions positions = Trees.instance(task).getSourcePositions();
    for (CompilationUnitTree unit : task.parse()) {
      Path path = Path.of(unit.getSourceFile().toUri());
      Files.writeString(path, stub(unit, positions, Files.readString(path)));
    }
  }

  /** A text edit: the characters [start, end) of the source replaced by text. */
  private static final class Edit {
    final long start;
    final long end;
    final String text;

    Edit(long start, long end, String text) {
      this.start = start;
      this.end = end;
      this.text = text;
    }
  }

  /** A static final field of a primitive type or String: its initializer may be a constant that others use. */
  private static boolean isConstant(VariableTree field) {
    Set<Modifier> modifiers = field.getModifiers().getFlags();
    Tree type = field.getType();
    return modifiers.contains(Modifier.STATIC) && modifiers.contains(Modifier.FINAL)
        && (type.getKind() == Tree.Kind.PRIMITIVE_TYPE || type.toString().equals("String"));
  }

  private static String stub(CompilationUnitTree unit, SourcePositions positions, String source) {
    List<Edit> edits = new ArrayList<>();
    Set<String> used = new HashSet<>();
    Set<Tree> fields = new HashSet<>();
    new TreeScanner<Void, Void>() {
      @Override
      public Void visitClass(ClassTree type, Void unused) {
        scan(type.getModifiers(), null);
        scan(type.getTypeParameters(), null);
        scan(type.getExtendsClause(), null);
        scan(type.getImplementsClause(), null);
        for (Tree member : type.getMembers()) {
          if (member.getKind() == Tree.Kind.BLOCK) {
            edits.add(new Edit(start(member), end(member), "{ }"));
          } else {
            // An interface's fields are constants, whatever their modifiers say; an enum's stay as written.
            if (member.getKind() == Tree.Kind.VARIABLE && type.getKind() == Tree.Kind.CLASS) {
              fields.add(member);
            }
            scan(member, null);
          }
        }
        return null;
      }

      @Override
      public Void visitImport(ImportTree tree, Void unused) {
        return null;
      }

      @Override
      public Void visitMethod(MethodTree method, Void unused) {
        BlockTree body = method.getBody();
        scan(method.getModifiers(), null);
        scan(method.getTypeParameters(), null);
        scan(method.getReturnType(), null);
        scan(method.getParameters(), null);
        scan(method.getThrows(), null);
        scan(method.getDefaultValue(), null);
        if (body != null) {
          String kept = "";
          if (!body.getStatements().isEmpty()) {
            StatementTree first = body.getStatements().get(0);
            String text = text(first);
            if (text.startsWith("super(") || text.startsWith("this(")) {
              kept = text + " ";
              scan(first, null);
            }
          }
          edits.add(new Edit(start(body), end(body), "{ " + kept + THROW + " }"));
        }
        return null;
      }

      @Override
      public Void visitVariable(VariableTree variable, Void unused) {
        if (variable.getInitializer() == null || !fields.contains(variable) || isConstant(variable)) {
          return super.visitVariable(variable, null);
        }
        scan(variable.getModifiers(), null);
        scan(variable.getType(), null);
        Tree type = variable.getType();
        String zero = type.getKind() == Tree.Kind.PRIMITIVE_TYPE
            ? (((PrimitiveTypeTree) type).getPrimitiveTypeKind() == TypeKind.BOOLEAN ? "false" : "0") : "null";
        edits.add(new Edit(start(variable.getInitializer()), end(variable.getInitializer()), zero));
        return null;
      }

      @Override
      public Void visitIdentifier(IdentifierTree tree, Void unused) {
        used.add(tree.getName().toString());
        return null;
      }

      private long start(Tree tree) {
        return positions.getStartPosition(unit, tree);
      }

      private long end(Tree tree) {
        return positions.getEndPosition(unit, tree);
      }

      private String text(Tree tree) {
        return source.substring((int) start(tree), (int) end(tree));
      }
    }.scan(unit, null);

    for (ImportTree imported : unit.getImports()) {
      MemberSelectTree name = (MemberSelectTree) imported.getQualifiedIdentifier();
      String simple = name.getIdentifier().toString();
      if (!simple.equals("*") && !used.contains(simple)) {
        long end = positions.getEndPosition(unit, imported);
        edits.add(new Edit(positions.getStartPosition(unit, imported), source.startsWith("\n", (int) end) ? end + 1 : end, ""));
      }
    }
    StringBuilder stubbed = new StringBuilder(source);
    edits.stream().sorted(Comparator.comparingLong((Edit edit) -> edit.start).reversed())
        .forEach(edit -> stubbed.replace((int) edit.start, (int) edit.end, edit.text));
    return stubbed.toString();
  }
}
