/* llamacpp_names.cpp — how libllama-common 0.7.0 reads a stage order: every
 * word of a list through common_sampler_types_from_names (what --samplers and
 * a GGUF's general.sampling.sequence go through) and every printable letter
 * through common_sampler_types_from_chars (--sampling-seq), printed with
 * common_sampler_type_to_str / _to_chr. The functions are declared here as
 * libllama-common exports them (nm -D: common_sampler_types_from_names takes
 * only the vector in 0.7.0); Debian ships no header for them.
 *
 * Output records:
 *   type N NAME LETTER     each common_sampler_type value with a name
 *   name WORD -> NAME      the word matched that stage ('-': dropped with a warning)
 *   char C -> NAME         the letter matched (letters that match nothing are left out)
 * Usage: llamacpp_names WORD... > llamacpp_names.txt */
#include <cstdio>
#include <string>
#include <vector>

enum common_sampler_type { COMMON_SAMPLER_TYPE_NONE_ = 0, COMMON_SAMPLER_TYPE_BIG_ = 1 << 20 };
std::vector<common_sampler_type> common_sampler_types_from_names(const std::vector<std::string> &names);
std::vector<common_sampler_type> common_sampler_types_from_chars(const std::string &chars);
char common_sampler_type_to_chr(common_sampler_type);
std::string common_sampler_type_to_str(common_sampler_type);

int main(int argc, char **argv)
{
    std::printf("# llamacpp_names: libllama-common %s, common_sampler_types_from_names / _from_chars\n",
                LLAMA_PKG_VERSION);
    for (int t = 0; t < 32; t++) {
        std::string s = common_sampler_type_to_str((common_sampler_type)t);
        if (!s.empty())
            std::printf("type %d %s %c\n", t, s.c_str(), common_sampler_type_to_chr((common_sampler_type)t));
    }
    for (int i = 1; i < argc; i++) {
        std::vector<common_sampler_type> v = common_sampler_types_from_names({argv[i]});
        std::printf("name %s -> %s\n", argv[i], v.empty() ? "-" : common_sampler_type_to_str(v[0]).c_str());
    }
    for (int c = 0x21; c < 0x7f; c++) {
        std::vector<common_sampler_type> v = common_sampler_types_from_chars(std::string(1, (char)c));
        if (!v.empty())
            std::printf("char %c -> %s\n", c, common_sampler_type_to_str(v[0]).c_str());
    }
    return 0;
}
